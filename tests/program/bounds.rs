//! Bounded cost on hostile input, through the binary: networks whose objects nest deeper than
//! the metrics can recurse, searches over 2^N orderings, the one time budget per recipe
//! (`--timeout-per-recipe`) on every command that runs a recipe, and the memory budget. Each network is made here
//! for the demo benchmark, so these run without the benchmark data.

use crate::common;

use common::{Outcome, Scratch, outcome};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// The address space a run that keeps to the memory budget needs, with room to spare: the
/// budget's cells are about 1 GB, the threads' stacks and the allocator's arenas reserve more.
const MEMORY_CAP: u64 = 3 << 30;

/// The first action the memory budget refuses in [`portion_heap`]: its 71st portioning, when
/// the counter-top holds 1,400,000 portions (each kitchen state sharing the counter-top's list;
/// copying it into every state, the 24th, at 460,000 portions).
const PAST_THE_MEMORY_BUDGET_PAIRS: usize = 71;
const PAST_THE_MEMORY_BUDGET: &str = "recipe demo-shortbread-rounds was not scored within its \
     memory budget of 24000000 kitchen cells (objects, their slots and list items, about 1 GB); \
     it was in the simulation at action 143 (`portion-and-arrange`)";

/// Pairs of 20,000 portions heaped on the demo's counter-top.
fn portion_heap(pairs: usize) -> String {
    common::portion_heap("demo-shortbread-rounds", "butter", pairs)
}

/// A mixing chain of `n` actions on the demo's greens.
fn mixing_chain(n: usize) -> String {
    common::mixing_chain("demo-garden-salad", "mixed-greens", n)
}

/// The longest chain the simulator takes (`get-kitchen` and `MAX_ACTIONS - 1` more), each
/// action preheating the next oven of the kitchen state before it.
fn preheat_chain() -> String {
    let n = cookingbot::simulation::MAX_ACTIONS - 1;
    common::kitchen_chain("demo-shortbread-rounds", n, |i| {
        format!(
            "(preheat-oven ?hot{i} ?ks{i} ?ks{} ?oven{i} 180 degrees-celsius)",
            i - 1
        )
    })
}

/// The longest chain of actions that fail: once the kitchen has no whisk left, each `fetch`
/// binds a fresh `failed-object`.
fn failed_fetch_chain() -> String {
    let n = cookingbot::simulation::MAX_ACTIONS - 1;
    common::kitchen_chain("demo-shortbread-rounds", n, |i| {
        format!("(fetch ?thing{i} ?ks{i} ?ks{} whisk 1)", i - 1)
    })
}

/// `n` independent actions and one that never runs, on the demo's salt.
fn independent_actions(n: usize) -> String {
    common::independent_actions("demo-garden-salad", "salt", n)
}

fn demo(args: &[&str]) -> Outcome {
    outcome(
        common::evaluator()
            .args(["--benchmark", "demo"])
            .args(args)
            // Scored on threads of 1 MiB of stack: half the default, so the margin is shown.
            .env("RUST_MIN_STACK", "1048576"),
    )
}

/// `net` scored on the demo benchmark into `out`, under an address-space cap of `cap` bytes.
fn evaluated_capped(net: &Path, out: &Path, cap: u64) -> Command {
    let mut command = common::evaluator();
    command.args(["--benchmark", "demo", "-input", path(net), "-o", path(out)]);
    common::capped(&mut command, cap);
    command
}

fn path(p: &Path) -> &str {
    p.to_str().expect("scratch paths are UTF-8")
}

#[test]
fn a_chain_past_the_nesting_bound_is_refused_at_its_action_and_costs_no_other_row() {
    let s = Scratch::new("deep-chain");
    // 2,000 mixes overflowed the stack (exit 134) and lost every row of the batch.
    let deep = s.write("deep.solution", mixing_chain(2_000));
    let perfect = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/demo-perfect.solution");
    let out = s.path("results.csv");
    let o = demo(&[
        "-input",
        path(&deep),
        "-input",
        path(&perfect),
        "-o",
        path(&out),
    ]);
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(
        o.stderr.contains(
            "deep.solution: mix would nest container-with-mixture deeper than 2000 levels \
             (objects within objects); networks whose objects nest that deep are not simulated"
        ),
        "{}",
        o.stderr
    );
    let csv = std::fs::read_to_string(&out).expect("the other file's rows are written");
    assert_eq!(
        csv.lines()
            .filter(|l| l.contains("demo-perfect.solution"))
            .count(),
        3
    );
    // `simulate` names the action: the 998th mix (line 1001) is the first past the bound.
    let o = demo(&["simulate", path(&deep)]);
    assert_eq!(o.code, 1);
    assert!(
        o.stderr.starts_with("error: ")
            && o.stderr.contains(
                "deep.solution:1001:1: (mix ?m998 ?ks998 ?ks997 ?m997 ?whisk): mix would nest"
            ),
        "{}",
        o.stderr
    );
}

#[test]
fn a_chain_just_under_the_nesting_bound_is_scored_on_small_stacks() {
    let s = Scratch::new("deep-chain-scored");
    let chain = s.write("chain.solution", mixing_chain(997));
    let o = demo(&[
        "-input",
        path(&chain),
        "-o",
        "-",
        "--metrics",
        "goal-condition-success,dish-approximation-score",
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stdout.starts_with(
            "recipe-id,goal-condition-success,dish-approximation-score\ndemo-garden-salad,"
        ),
        "{}",
        o.stdout
    );
}

#[test]
fn the_time_budget_bounds_a_search_over_every_ordering_on_every_command() {
    let s = Scratch::new("search");
    // 2^24 sets of executed actions, none of which runs the last action.
    let net = s.write("search.solution", independent_actions(24));
    let html = s.path("search.html");
    let perfect = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/demo-perfect.solution");
    let budget = ["--timeout-per-recipe", "1"];
    let runs: [(&str, Vec<&str>); 4] = [
        ("evaluation", vec!["-input", path(&net), "-o", "-"]),
        ("simulate", vec!["simulate", path(&net)]),
        ("report", vec!["report", path(&net), "-o", path(&html)]),
        ("compare", vec!["compare", path(&perfect), path(&net)]),
    ];
    for (command, args) in runs {
        let o = demo(&[&budget[..], &args[..]].concat());
        let refusal = "recipe demo-garden-salad was not scored within its time budget of 1 s \
                       (--timeout-per-recipe); it was in the simulation at action ";
        match command {
            // compare scores the refused file 0 and goes on.
            "compare" => {
                assert_eq!(o.code, 0, "{command}: {}", o.stderr);
                assert!(
                    o.stderr
                        .contains("search.solution: 1 of 1 files were refused"),
                    "{}",
                    o.stderr
                );
            }
            _ => {
                assert_eq!(o.code, 1, "{command}: {}", o.stderr);
                assert!(o.stderr.contains(refusal), "{command}: {}", o.stderr);
                assert!(
                    o.stderr.contains(
                        "sets of executed actions searched to the end; never run: action 26 (`mix`)"
                    ),
                    "{command}: {}",
                    o.stderr
                );
            }
        }
    }
    assert!(!html.exists(), "no report is written for a refused recipe");
}

/// 5,000 g of eggs cracked into flour, mixed and portioned: the network runs in milliseconds,
/// and the dish approximation score then compares the portions' yolks for seconds of CPU (about
/// 9 s here before the memory budget stops it), far past a budget of 1 s whatever the machine.
/// (With 500 g the score, once the dish stopped being copied whole, took under 1 s.)
const PORTIONS_OF_MANY_EGGS: &str = "#demo-shortbread-rounds
(get-kitchen ?k)
(fetch-and-proportion ?eggs ?k1 ?k ?bowl egg 5000 g)
(crack ?cracked ?k2 ?k1 ?eggs ?bowl2)
(fetch-and-proportion ?flour ?k3 ?k2 ?bowl3 all-purpose-flour 5000 g)
(transfer-contents ?mix ?rest ?k4 ?k3 ?cracked ?flour ?q ?u)
(mix ?dough ?k5 ?k4 ?mix ?tool)
(portion-and-arrange ?portions ?k6 ?k5 ?dough 25 g ?pattern ?counter)
";

#[test]
fn the_time_budget_bounds_the_dish_score_on_every_command_that_chooses_a_dish() {
    let s = Scratch::new("dish-budget");
    let net = s.write("eggs.solution", PORTIONS_OF_MANY_EGGS);
    let refusal = "recipe demo-shortbread-rounds was not scored within its time budget of 1 s \
                   (--timeout-per-recipe); it was in the dish approximation score at action 7 \
                   (`portion-and-arrange`)";
    // `simulate` and `diet` chose their final dish by the dish score outside any budget: the
    // first took 94 s on this network with a budget of 2 s.
    for args in [
        vec!["-input", path(&net), "-o", "-"],
        vec!["simulate", path(&net)],
        vec!["diet", path(&net), "--diet", "vegan"],
    ] {
        let o = demo(&[&["--timeout-per-recipe", "1"][..], &args[..]].concat());
        assert_eq!(o.code, 1, "{args:?}: {}", o.stderr);
        assert!(o.stderr.contains(refusal), "{args:?}: {}", o.stderr);
    }
}

#[test]
fn a_heap_of_portions_is_refused_at_its_action_within_the_memory_budget() {
    let s = Scratch::new("portion-heap");
    // 249 pairs, 35 KB: the run grew past 5 GB and aborted ("memory allocation failed"). A
    // search passes over the parts of the counter-top that cannot hold what it looks for, so an
    // action costs what it touches and the default time budget is enough: the memory budget
    // decides where the run ends (walking the counter-top at every action, it needed 600 s).
    let net = s.write("heap.solution", portion_heap(249));
    let out = s.path("results.csv");
    let o = outcome(&mut evaluated_capped(&net, &out, MEMORY_CAP));
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(
        o.stderr.contains(&format!(
            "heap.solution: {PAST_THE_MEMORY_BUDGET}: 143 actions run over 0 sets of executed \
             actions searched to the end; never run: action 144 (`fetch-and-proportion`)"
        )),
        "{}",
        o.stderr
    );
    assert!(!out.exists(), "no results are written for a refused file");
}

/// 25 pairs, 500,000 portions on the counter-top: every kitchen state shares the counter-top's
/// list, so the simulation runs all 51 actions within the memory budget, and the dish
/// approximation score, which copies only the objects whose class does not copy a slot, scores
/// the portions in about 120 MB. Each state copying the list, the simulation itself was
/// refused at its 49th action (see `PAST_THE_MEMORY_BUDGET`); the dish copied whole, the score
/// was refused by the memory budget at action 9.
#[test]
fn a_heap_of_portions_is_simulated_whole_when_kitchen_states_share_the_counter_top() {
    let s = Scratch::new("portion-heap-shared");
    let net = s.write("heap.solution", portion_heap(25));
    let o = outcome(common::capped(
        common::evaluator().args(["--benchmark", "demo", "-input", path(&net), "-o", "-"]),
        MEMORY_CAP,
    ));
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(
        o.stdout,
        "recipe-id,goal-condition-success,dish-approximation-score,execution-time\n\
         demo-shortbread-rounds,0.00,0.17,2750\n"
    );
}

/// The longest chain of kitchen states is scored in 290 MB of address space (one allocator
/// arena, so that the bound does not depend on the machine's cores): each kitchen state shares
/// what its action left unchanged and holds the slots it changed, an oven's temperature holds
/// the network's quantity and unit objects themselves, and the run keeps its bindings once (the
/// execution the 2024 search found left in place as the search backs out of it) and its record
/// of what to undo sized to fit. Holding the bindings four times over (the network's, the
/// search's, the longest attempt's and the execution's), it needed 560 MB; every slot of every
/// changed object and a copy of the execution the 2024 search found, 448 MB; the execution's
/// bindings moved aside as the search backed out, a list of explored sets per hash and copies
/// of the quantity and unit per temperature, 386 MB; each copied kitchen state holding its
/// five changed slots again, each object's one changed slot in a list of its own, an argument
/// of 32 bytes with a string per name and a span of 16 bytes, 305 MB.
#[test]
fn the_longest_chain_of_kitchen_states_is_scored_in_bounded_memory() {
    let s = Scratch::new("preheat-chain");
    let net = s.write("chain.solution", preheat_chain());
    let out = s.path("results.csv");
    let o = outcome(evaluated_capped(&net, &out, 290 << 20).env("MALLOC_ARENA_MAX", "1"));
    assert_eq!(o.code, 0, "{}", o.stderr);
    // 15 s a kitchen state, and the last oven hot 600 s after its action: 15 × 99,998 + 615.
    assert_eq!(
        std::fs::read_to_string(&out).expect("results written"),
        "recipe-id,goal-condition-success,dish-approximation-score,execution-time\n\
         demo-shortbread-rounds,0.00,0.00,1500585\n"
    );
}

/// The longest chain of failed actions is scored in 240 MB of address space (one allocator
/// arena): a failed object shares its class's plain defaults with every other (its unread
/// defaults made only when read), a kitchen state copied by an action holds the slots it
/// changed, and the execution the 2024 search found is neither copied when the search goes on
/// from it nor moved aside as the search backs out of it. A failed object holding every slot
/// of its class, it needed 389 MB; the execution's bindings moved aside as the search backed
/// out, a list of explored sets per hash and a list of slots per action, 287 MB; the copied
/// kitchen states' changed slots, the one-slot lists and the syntax tree as above, 253 MB.
#[test]
fn the_longest_chain_of_failed_actions_is_scored_in_bounded_memory() {
    let s = Scratch::new("fetch-chain");
    let net = s.write("chain.solution", failed_fetch_chain());
    let out = s.path("results.csv");
    let o = outcome(evaluated_capped(&net, &out, 240 << 20).env("MALLOC_ARENA_MAX", "1"));
    assert_eq!(o.code, 0, "{}", o.stderr);
    // 30 s a fetch, failed or not.
    assert_eq!(
        std::fs::read_to_string(&out).expect("results written"),
        "recipe-id,goal-condition-success,dish-approximation-score,execution-time\n\
         demo-shortbread-rounds,0.00,0.00,2999970\n"
    );
}

#[test]
fn a_play_session_refuses_the_action_past_the_memory_budget_and_goes_on() {
    let s = Scratch::new("portion-heap-play");
    let heap = portion_heap(PAST_THE_MEMORY_BUDGET_PAIRS);
    let mut lines: Vec<&str> = heap.lines().skip(1).collect();
    // After the refusal: the oven preheated in the last kitchen state that was made.
    let oven = "(preheat-oven ?hot-oven ?ks-oven ?ks70 ?oven 180 degrees-celsius)";
    lines.push(oven);
    let mut command = common::evaluator();
    command
        .args(["--benchmark", "demo", "play", "demo-shortbread-rounds"])
        .current_dir(&*s)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = common::capped(&mut command, MEMORY_CAP)
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().expect("its stdin");
    stdin
        .write_all(format!("{}\n", lines.join("\n")).as_bytes())
        .expect("lines written");
    drop(stdin);
    let run = child.wait_with_output().expect("it ends");
    let out = common::stdout(&run);
    assert_eq!(run.status.code(), Some(0), "{}", common::stderr(&run));
    assert!(
        out.contains(&format!(
            "refused (line 144): portion-and-arrange was refused by the recipe's budget: \
             {PAST_THE_MEMORY_BUDGET}\n"
        )),
        "{out}"
    );
    assert!(out.contains("ran (line 145): preheat-oven ran"), "{out}");
}

#[test]
fn the_time_budget_is_an_option_of_the_commands_that_run_recipes_only() {
    let s = Scratch::new("budget-options");
    let net = s.write("n.solution", independent_actions(1));
    let o = demo(&["check", "--timeout-per-recipe", "5", path(&net)]);
    assert_eq!(o.code, 2);
    assert!(
        o.stderr
            .starts_with("error: `check` runs no recipe: --timeout-per-recipe would do nothing"),
        "{}",
        o.stderr
    );
    let o = demo(&["--timeout-per-recipe", "0", "simulate", path(&net)]);
    assert_eq!(o.code, 2);
    assert!(
        o.stderr
            .contains("invalid value '0' for '--timeout-per-recipe <SECONDS>'"),
        "{}",
        o.stderr
    );
    // An evaluation option elsewhere is named as it is spelt.
    let o = demo(&["--smatch-exact", "simulate", path(&net)]);
    assert_eq!(o.code, 2);
    assert!(
        o.stderr
            .starts_with("error: --smatch-exact is an option of the evaluation, not of `simulate`"),
        "{}",
        o.stderr
    );
}

/// Run `command` with its address space capped at `bytes`: what it allocates past that fails.
fn capped(command: &mut std::process::Command, bytes: u64) -> &mut std::process::Command {
    use std::os::unix::process::CommandExt;
    let limit = libc::rlimit {
        rlim_cur: bytes as libc::rlim_t,
        rlim_max: bytes as libc::rlim_t,
    };
    // SAFETY: setrlimit is async-signal-safe, and the closure touches nothing else.
    unsafe {
        command.pre_exec(move || match libc::setrlimit(libc::RLIMIT_AS, &limit) {
            0 => Ok(()),
            _ => Err(std::io::Error::last_os_error()),
        })
    }
}

/// A file of dense lines (1,350 unknown names each, 2,700 errors a line: 2.7 million in 4 MB)
/// is checked in 512 MB: the first 100 diagnostics are kept and shown, the rest counted as
/// they are found. Kept all, they took 860 MB for this file (300 times the file) and aborted
/// on a 63 MB one.
#[test]
fn check_keeps_the_first_diagnostics_of_a_dense_file_and_counts_the_rest() {
    let s = Scratch::new("dense-check");
    let line = format!("(fetch ?b ?c ?ks0 {})\n", vec!["zq"; 1_350].join(" "));
    let text = format!(
        "#afghan-biscuits\n(get-kitchen ?ks0)\n{}",
        line.repeat(1_000)
    );
    let file = s.write("dense.solution", &text);
    let mut command = common::evaluator();
    command.args(["check", path(&file)]);
    let o = outcome(capped(&mut command, 512 << 20));
    assert_eq!(
        o.code,
        1,
        "{}",
        &o.stderr[o.stderr.len().saturating_sub(500)..]
    );
    let errors = 1_000 * 2_700;
    let end = format!(
        "dense.solution: and {} more diagnostic(s), not shown\n\
         checked 1 file(s) against profile 2024: {errors} error(s), 0 warning(s)\n",
        errors - 100
    );
    assert!(
        o.stderr.ends_with(&end),
        "{}",
        &o.stderr[o.stderr.len().saturating_sub(500)..]
    );
    assert_eq!(o.stderr.matches("\nerror[E").count() + 1, 100);
    // The first in text order: the first `zq` unknown, the second repeated, then unknown.
    let codes: Vec<&str> = o
        .stderr
        .lines()
        .filter(|l| l.starts_with("error["))
        .take(3)
        .collect();
    assert_eq!(
        codes,
        [
            "error[E0106]: `zq` is not a class of the ontology",
            "error[E0102]: `zq` appears twice in this `fetch`",
            "error[E0106]: `zq` is not a class of the ontology"
        ]
    );
}

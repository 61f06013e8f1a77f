//! Property tests: no input makes parsing or validation panic, and printed networks read back
//! as the same tree.

use cookingbot::base::number::Number;
use cookingbot::base::profile::Profile;
use cookingbot::language::ast::{Arg, Predicate, Recipe, SolutionFile, Span};
use cookingbot::language::dependencies::Network;
use cookingbot::language::parse::parse;
use cookingbot::language::validate::{Validator, check};
use proptest::prelude::*;

fn token() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("(".to_string()),
        Just(")".to_string()),
        Just("\n".to_string()),
        Just("\r".to_string()),
        Just(" ".to_string()),
        Just("\t".to_string()),
        Just("#".to_string()),
        Just(";".to_string()),
        Just("'".to_string()),
        Just("\"".to_string()),
        Just("|".to_string()),
        Just(".".to_string()),
        Just("get-kitchen".to_string()),
        Just("fetch".to_string()),
        Just("?k".to_string()),
        Just("?".to_string()),
        Just("1/0".to_string()),
        Just("1e99".to_string()),
        "[a-z?#0-9./+-]{1,8}",
        "\\PC{1,3}",
    ]
}

fn arg() -> impl Strategy<Value = Arg> {
    let leaf = prop_oneof![
        "[a-z][a-z0-9-]{0,10}".prop_map(|v| Arg::Var(v.into())),
        "[a-z][a-z-]{0,10}"
            .prop_filter("nil is the empty list", |s| s != "nil")
            .prop_map(|s| Arg::Sym(s.into())),
        (-1000i64..1000).prop_map(|i| Arg::Num(Number::int(i))),
        (-100i64..100, 1i64..50)
            .prop_map(|(n, d)| Arg::Num(Number::ratio(n, d).unwrap_or(Number::ZERO))),
        (-1.0e6f32..1.0e6).prop_map(|f| Arg::Num(Number::float(f))),
    ];
    leaf.prop_recursive(3, 12, 4, |inner| {
        prop::collection::vec(inner, 0..4).prop_map(|items| Arg::List(items.into()))
    })
}

fn network() -> impl Strategy<Value = SolutionFile> {
    let predicate = (
        "[a-z][a-z-]{0,12}".prop_filter("nil is the empty list", |s| s != "nil"),
        prop::collection::vec(arg(), 0..8),
    )
        .prop_map(|(name, args)| {
            let n = args.len();
            Predicate {
                name,
                args,
                span: Span::default(),
                name_span: Span::default(),
                arg_spans: vec![Span::default(); n].into(),
            }
        });
    let recipe = (
        "[a-z][a-z0-9-]{0,20}",
        prop::collection::vec(predicate, 0..10),
    )
        .prop_map(|(id, predicates)| Recipe {
            id,
            id_span: Span::default(),
            predicates,
        });
    prop::collection::vec(recipe, 0..4).prop_map(|recipes| SolutionFile { recipes })
}

fn without_spans(mut file: SolutionFile) -> SolutionFile {
    for r in &mut file.recipes {
        r.id_span = Span::default();
        for p in &mut r.predicates {
            p.span = Span::default();
            p.name_span = Span::default();
            p.arg_spans = vec![Span::default(); p.arg_spans.len()].into();
        }
    }
    file
}

fn exercise(text: &str) {
    let v = Validator::new(Profile::R2024).with_known_recipes(&["afghan-biscuits"]);
    let (_, diagnostics) = check(text, &v);
    for d in diagnostics.iter().take(3) {
        let _ = d.render("x", text);
    }
    for r in &parse(text).file.recipes {
        let net = Network::build(r, v.catalogue());
        let _ = net.topological_order();
        let _ = net.to_dot(r);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        exercise(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn token_soups_never_panic(tokens in prop::collection::vec(token(), 0..80)) {
        exercise(&tokens.concat());
        exercise(&format!("#afghan-biscuits\n({})", tokens.join(" ")));
    }

    #[test]
    fn printed_networks_read_back(file in network()) {
        let printed = file.to_string();
        let parsed = parse(&printed);
        prop_assert!(parsed.diagnostics.iter().all(|d| !d.is_error()), "{printed}\n{:?}", parsed.diagnostics);
        prop_assert_eq!(without_spans(parsed.file), file);
    }
}

#[test]
fn deep_nesting_is_bounded() {
    let text = format!("#r\n{}\n", "(".repeat(1_000_000));
    let p = parse(&text);
    assert!(p.has_errors());
}

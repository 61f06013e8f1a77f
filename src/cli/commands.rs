//! One `run` per command: each turns its parsed arguments into the service layer's options,
//! calls the service and hands back how it ended. The launcher and the tool server are reached
//! through the [`FrontEnds`] the program's entry wired in.

#[cfg(feature = "gui")]
use super::FrontEnds;
use super::args::*;
use super::{Session, usage};
use crate::base::profile::Profile;
use crate::benchmark::DataChoice;
use crate::metrics::metric::{Metric, MetricSet};
use crate::metrics::smatch::SmatchConfig;
use crate::service::check;
use crate::service::comparison::{self, CompareOptions};
use crate::service::diet_check::{self, DietOptions};
use crate::service::install::{self, FetchOptions};
use crate::service::jobs::{self, JobOptions};
#[cfg(feature = "gui")]
use crate::service::launch::LaunchSettings;
use crate::service::outcome::{AppError, Exit, Outcome};
use crate::service::play::{self, PlainLines, PlayOptions, Typed};
use crate::service::replay;
use crate::service::report_page::{self, ReportOptions};
use crate::service::scoring::{self, EvaluateOptions, GoldFile, MergeOptions};
use crate::service::simulate::{self, SimulateOptions};
use crate::service::translation::{self, Setup, TranslateOptions};
use crate::service::translation_bench::{self, BenchOptions};
use crate::service::user_benchmark::{self, AddRecipe, NewRecipe};
use crate::service::workspace::Workspace;
use clap::CommandFactory;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

/// Open the launcher; where no window can be opened, say why and how to use the command line.
#[cfg(feature = "gui")]
pub(super) fn launch(front_ends: &FrontEnds, settings: LaunchSettings) -> Outcome {
    (front_ends.launcher)(settings).map_err(|e| {
        AppError::Failed(format!("cannot open the launcher window: {e}\n{}", usage()))
    })?;
    Ok(Exit::Success)
}

impl EvaluateArgs {
    /// The reference's invocation, and the HTML view `-show-output t` asks for.
    pub(super) fn run(self, Session(data, quiet, out, err, front_ends): Session<'_>) -> Outcome {
        let output = match (self.input.is_empty(), self.output) {
            (false, Some(output)) => output,
            (no_input, output) => {
                let missing = match (no_input, output.is_none()) {
                    (true, true) => "-input FILE and -output FILE",
                    (true, false) => "-input FILE (a .solution file or a folder of them)",
                    _ => "-output FILE (or -o FILE; - for standard output)",
                };
                return Err(AppError::Options(format!(
                    "the evaluation needs {missing}\n{}",
                    usage()
                )));
            }
        };
        let show_output = self
            .show_output
            .as_deref()
            .is_some_and(report_page::show_output_requested);
        if show_output && output.as_os_str() == scoring::STDOUT {
            // The page goes beside the output file, and `-` is none: it would be `-.html`.
            return Err(AppError::Options(
                "-show-output t writes the HTML page beside the output file, and -output - names no file: write the results to a file, or make the page with `cookingbot-evaluator report FILE -o PAGE.html`".into(),
            ));
        }
        let opts = EvaluateOptions {
            inputs: self.input,
            output,
            metrics: MetricSet::from_words(&self.metrics),
            data,
            format: self.format.into(),
            smatch: SmatchConfig {
                restarts: self.smatch_restarts,
                seed: self.smatch_seed,
                exact: self.smatch_exact,
                exact_budget: self.smatch_exact_budget,
                ..SmatchConfig::default()
            },
            shard: self.shard,
            fail_under: self.fail_under.fail_under,
            progress: !quiet && std::io::stderr().is_terminal(),
            quiet,
            ci: self.ci.bootstrap(),
            gold: self.gold.map(|path| GoldFile {
                path,
                dish: self.dish,
            }),
        };
        let exit = if front_ends.process_ends {
            scoring::run_once(&opts, out, err)?
        } else {
            scoring::run(&opts, out, err)?
        };
        if !show_output || exit != Exit::Success {
            return Ok(exit);
        }
        let opts = ReportOptions {
            html: report_page::beside(&opts.output),
            evaluation: opts,
            recipe: None,
            open: true,
            trajectory: None,
        };
        report_page::run(&opts, out, err)
    }
}

impl CompletionsArgs {
    pub(super) fn run(self, Session(_, _, out, _, _): Session<'_>) -> Outcome {
        let CompletionsArgs { shell } = self;
        let mut bytes = Vec::new();
        clap_complete::generate(
            shell,
            &mut Cli::command(),
            "cookingbot-evaluator",
            &mut bytes,
        );
        out.write_all(&bytes).map_err(AppError::Stdout)?;
        Ok(Exit::Success)
    }
}

pub(super) fn manpage(Session(_, _, out, _, _): Session<'_>) -> Outcome {
    clap_mangen::Man::new(Cli::command())
        .render(out)
        .map_err(AppError::Stdout)?;
    Ok(Exit::Success)
}

impl CheckArgs {
    pub(super) fn run(self, Session(data, _, out, err, _): Session<'_>) -> Outcome {
        let CheckArgs {
            files,
            known_recipes,
            format,
        } = self;
        // The whole model, kitchen included: what `simulate` would refuse, `check` refuses.
        let workspace = Workspace::open(data)?;
        let opts = jobs::check_options(&workspace, known_recipes)?;
        let files: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
        match format {
            CheckFormat::Human => check::check_files(&files, &opts, err),
            CheckFormat::Json => jobs::check_lines(&files, &opts, out),
        }
    }
}

impl GraphArgs {
    pub(super) fn run(self, Session(data, _, out, err, _): Session<'_>) -> Outcome {
        let GraphArgs { file, recipe } = self;
        check::graph(&file, recipe.as_deref(), data.profile, out, err)
    }
}

impl SimulateArgs {
    pub(super) fn run(self, Session(data, _, out, err, _): Session<'_>) -> Outcome {
        let SimulateArgs {
            file,
            recipe,
            trace,
            json,
        } = self;
        let opts = SimulateOptions {
            file,
            recipe,
            data,
            trace,
            json,
        };
        simulate::run(&opts, out, err)
    }
}

impl DietArgs {
    pub(super) fn run(self, Session(data, _, out, err, _): Session<'_>) -> Outcome {
        let DietArgs {
            file,
            diet,
            recipe,
            format,
            output,
        } = self;
        let opts = DietOptions {
            file,
            recipe,
            diet,
            data,
            format,
            output,
        };
        diet_check::run(&opts, out, err)
    }
}

impl JobArgs {
    pub(super) fn run(self, Session(data, _, out, _, _): Session<'_>) -> Outcome {
        let opts = JobOptions {
            name: self.name,
            request: self.request,
            data,
        };
        jobs::run(&opts, out)
    }
}

impl FetchArgs {
    pub(super) fn run(self, Session(data, _, out, err, _): Session<'_>) -> Outcome {
        let FetchArgs {
            all,
            from,
            data_dir,
        } = self;
        let opts = FetchOptions {
            profiles: if all {
                Profile::ALL.to_vec()
            } else {
                vec![data.profile]
            },
            from,
            data_dir,
        };
        install::run(&opts, out, err)
    }
}

impl MergeArgs {
    pub(super) fn run(self, Session(_, quiet, out, err, _): Session<'_>) -> Outcome {
        let MergeArgs {
            shards,
            output,
            format,
            fail_under,
        } = self;
        let opts = MergeOptions {
            shards,
            output,
            format: format.into(),
            fail_under: fail_under.fail_under,
            quiet,
        };
        scoring::merge(&opts, out, err)
    }
}

impl CompareArgs {
    pub(super) fn run(self, Session(data, _, out, err, _): Session<'_>) -> Outcome {
        let CompareArgs {
            baseline,
            systems,
            output,
            format,
            bootstrap,
            trials,
            seed,
            metrics,
            dump_resamples,
        } = self;
        let metrics = if metrics.is_empty() {
            comparison::default_metrics()
        } else {
            MetricSet::from_words(&metrics)
        };
        let opts = CompareOptions {
            systems: std::iter::once(baseline).chain(systems).collect(),
            evaluation: EvaluateOptions::scoring(data, metrics),
            output,
            format: format.into(),
            bootstrap,
            trials,
            seed,
            dump_resamples,
        };
        comparison::run(&opts, out, err)
    }
}

impl ReportArgs {
    pub(super) fn run(self, Session(data, _, out, err, _): Session<'_>) -> Outcome {
        let ReportArgs {
            file,
            recipe,
            output,
            open,
            trajectory,
            metrics,
            ci,
        } = self;
        let metrics = if metrics.is_empty() {
            MetricSet::from_words(&Metric::ALL.map(Metric::name))
        } else {
            MetricSet::from_words(&metrics)
        };
        let opts = ReportOptions {
            html: output.unwrap_or_else(|| report_page::default_path(&file)),
            evaluation: EvaluateOptions {
                inputs: vec![file],
                ci: ci.bootstrap(),
                ..EvaluateOptions::scoring(data, metrics)
            },
            recipe,
            open,
            trajectory,
        };
        report_page::run(&opts, out, err)
    }
}

#[cfg(feature = "gui")]
impl GuiArgs {
    pub(super) fn run(self, Session(data, _, _, _, front_ends): Session<'_>) -> Outcome {
        let GuiArgs {
            input,
            output,
            metrics,
            run,
        } = self;
        let defaults = LaunchSettings::default();
        launch(
            front_ends,
            LaunchSettings {
                input,
                output,
                metrics: if metrics.is_empty() {
                    defaults.metrics
                } else {
                    MetricSet::from_words(&metrics)
                },
                profile: data.profile,
                benchmark: data.benchmark,
                start: run,
            },
        )
    }
}

impl TranslateArgs {
    pub(super) fn run(self, Session(data, _, out, err, _): Session<'_>) -> Outcome {
        let TranslateArgs {
            input,
            output,
            translator,
            fallback,
            format,
            llm,
        } = self;
        let opts = TranslateOptions {
            input,
            output,
            data,
            translator,
            llm,
            fallback,
            format,
        };
        translation::run(&opts, out, err)
    }
}

#[cfg(feature = "mcp")]
pub(super) fn mcp(Session(data, _, _, _, front_ends): Session<'_>) -> Outcome {
    (front_ends.tool_server)(&data)
}

impl NewBenchmarkArgs {
    pub(super) fn run(self, Session(_, _, out, _, _): Session<'_>) -> Outcome {
        let NewBenchmarkArgs { dir } = self;
        user_benchmark::new_benchmark(&dir, out)
    }
}

impl AddRecipeArgs {
    pub(super) fn run(self, Session(data, _, out, err, _): Session<'_>) -> Outcome {
        let AddRecipeArgs {
            text,
            gold,
            id,
            dish,
            official,
            allow_failing_gold,
        } = self;
        let benchmark = match data.benchmark {
            Some(DataChoice::Folder(dir)) => dir,
            Some(DataChoice::Demo) => {
                return Err(AppError::Options(
                    "add-recipe adds to a folder: the demo is built into the program \
                             (make your own with new-benchmark DIR)"
                        .into(),
                ));
            }
            None => {
                return Err(AppError::Options(
                    "add-recipe needs --benchmark DIR, the benchmark to add the recipe to".into(),
                ));
            }
        };
        let recipe = match (official, text, gold) {
            (Some(id), _, _) => NewRecipe::Official(id),
            (None, Some(text), Some(gold)) => NewRecipe::Own {
                text,
                gold,
                id,
                dish,
            },
            _ => {
                return Err(AppError::Options(
                    "add-recipe needs --text and --gold, or --official ID".into(),
                ));
            }
        };
        let opts = AddRecipe {
            benchmark,
            profile: data.profile,
            recipe,
            allow_failing_gold,
        };
        user_benchmark::add_recipe(&opts, out, err)
    }
}

impl BenchmarkArgs {
    pub(super) fn run(self, Session(data, _, out, err, _): Session<'_>) -> Outcome {
        let BenchmarkArgs {
            translator,
            samples,
            pass_threshold,
            split,
            out: folder,
            llm,
        } = self;
        let opts = BenchOptions {
            data: data.clone(),
            samples,
            pass_threshold,
            split,
            out: folder,
        };
        let setup = Setup {
            kind: translator,
            data: &data,
            llm: &llm,
            // The table measures the model: a recipe it fails is NIL, not the rules' row.
            fallback: false,
        };
        translation::with_translator(&setup, err, |_, t, err| {
            translation_bench::run(&opts, t, out, err)
        })
    }
}

impl ReplayArgs {
    /// The log run again: exit 0 identical, 1 different, 2 unreadable.
    pub(super) fn run(self, Session(_, _, out, _, _): Session<'_>) -> Outcome {
        let replayed = replay::replay(&self.log).map_err(|e| AppError::Failed(e.to_string()))?;
        writeln!(out, "{}", replayed.words(&self.log)).map_err(AppError::Stdout)?;
        Ok(match replayed.identical {
            true => Exit::Success,
            false => Exit::Failed,
        })
    }
}

impl PlayArgs {
    /// A line editor at a terminal (with the `repl` feature), plain lines otherwise.
    pub(super) fn run(self, Session(data, _, out, err, _): Session<'_>) -> Outcome {
        let PlayArgs {
            recipe,
            output,
            log,
        } = self;
        let opts = PlayOptions {
            recipe,
            data,
            output,
            log,
        };
        // SIGTERM or SIGHUP (a closed terminal) writes the lines typed, then exits.
        let typed = Typed::default();
        let rescued = typed.clone();
        super::signals::on_ending(move |name, status| {
            let why = format!("play ended by {name}");
            rescued.rescue(&why, &mut std::io::stderr(), || std::process::exit(status));
        })
        .map_err(|e| AppError::Failed(format!("cannot watch for signals: {e}")))?;
        #[cfg(feature = "repl")]
        if std::io::stdin().is_terminal() {
            let mut editor = super::repl::Editor::new()?;
            return play::run(&opts, &mut editor, &typed, out, err);
        }
        play::run(
            &opts,
            &mut PlainLines(std::io::stdin().lock()),
            &typed,
            out,
            err,
        )
    }
}

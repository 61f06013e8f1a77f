//! `substitute` and `scale`: their arguments as clap reads them, and each one's `run`, which
//! turns them into the service's options.

use super::Session;
use crate::data::diet_table::Diet;
use crate::service::outcome::{AppError, Outcome};
use crate::service::rewrite_run::AnswerOutputs;
use crate::service::scale::{self, ScaleOptions};
use crate::service::substitute::{self, SubstituteOptions, SubstituteRequest};
use crate::world::rewrite::scaling::Factor;
use crate::world::rewrite::substitution::AmountRule;
use clap::Args;
use std::path::PathBuf;

/// How an answer is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(super) enum AnswerFormat {
    /// For people.
    Text,
    /// The evaluation's metric names, the changes and the rewritten network.
    Json,
}

/// The arguments `substitute` and `scale` share: which recipe, and how and where the answer is
/// written.
#[derive(Args)]
pub(super) struct AnswerArgs {
    /// The recipe to use (default: the first in the file).
    #[arg(long)]
    pub(super) recipe: Option<String>,
    #[arg(long, value_enum, default_value = "text")]
    pub(super) format: AnswerFormat,
    /// The file to write the answer to (default: standard output), whole or not at all.
    #[arg(short, long)]
    pub(super) output: Option<PathBuf>,
}

impl AnswerArgs {
    /// The recipe, and where the answer goes (the rewritten network too when
    /// `network_output` names a file).
    fn split(self, network_output: Option<PathBuf>) -> (Option<String>, AnswerOutputs) {
        let outputs = AnswerOutputs {
            json: self.format == AnswerFormat::Json,
            output: self.output,
            network_output,
        };
        (self.recipe, outputs)
    }
}

#[derive(Args)]
pub(super) struct SubstituteArgs {
    /// The network (.solution). With --suggest it may be left out; given, each substitute is
    /// tried in it.
    #[arg(required_unless_present = "suggest")]
    pub(super) file: Option<PathBuf>,
    /// The ingredient to replace and its replacement: FROM=TO, such as butter=coconut-oil.
    #[arg(
        long,
        value_name = "FROM=TO",
        value_parser = replacement,
        required_unless_present = "suggest",
        conflicts_with = "suggest"
    )]
    pub(super) replace: Option<(String, String)>,
    /// How the new amount follows from the old: same-weight (grams by the gram table),
    /// same-volume (a spoonful for a spoonful; grams through both densities), same-count
    /// (the same number in the same unit) or same-effect (the same weight times the role
    /// table's strength factor). Default: same-effect where the role table gives the two
    /// different strengths, else same-weight.
    #[arg(long, value_name = "RULE", value_parser = AmountRule::named)]
    pub(super) amount_rule: Option<AmountRule>,
    /// Propose substitutes for an ingredient: the classes sharing a role with it in the role
    /// table (kitchens/substitutes.json).
    #[arg(long, value_name = "INGREDIENT")]
    pub(super) suggest: Option<String>,
    /// Keep only the substitutes a diet allows: vegan, vegetarian, gluten-free, dairy-free,
    /// nut-free or egg-free.
    #[arg(long, requires = "suggest", value_parser = Diet::named)]
    pub(super) diet: Option<Diet>,
    #[command(flatten)]
    pub(super) answer: AnswerArgs,
    /// Also write the substituted network to this .solution file.
    #[arg(long, value_name = "FILE", conflicts_with = "suggest")]
    pub(super) network_output: Option<PathBuf>,
}

/// `FROM=TO`, both named.
fn replacement(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((from, to)) if !from.trim().is_empty() && !to.trim().is_empty() => {
            Ok((from.trim().to_owned(), to.trim().to_owned()))
        }
        _ => Err(format!(
            "`{s}` is not FROM=TO (the ingredient and its replacement, such as butter=coconut-oil)"
        )),
    }
}

impl SubstituteArgs {
    pub(super) fn run(self, Session(data, _, out, err, _): Session<'_>) -> Outcome {
        let request = match (self.replace, self.suggest) {
            (Some((from, to)), _) => SubstituteRequest::Replace {
                from,
                to,
                rule: self.amount_rule,
            },
            (None, Some(class)) => SubstituteRequest::Suggest {
                class,
                diet: self.diet,
            },
            (None, None) => return Err(AppError::Failed("give --replace or --suggest".into())),
        };
        let (recipe, outputs) = self.answer.split(self.network_output);
        let opts = SubstituteOptions {
            file: self.file,
            recipe,
            data,
            request,
            outputs,
        };
        substitute::run(&opts, out, err)
    }
}

#[derive(Args)]
pub(super) struct ScaleArgs {
    /// The network (.solution).
    pub(super) file: PathBuf,
    /// The factor: 2, 1.5 or 3/2 (read exactly), from 1/100 to 100.
    #[arg(
        long,
        value_parser = Factor::parse,
        allow_hyphen_values = true,
        required_unless_present = "servings",
        conflicts_with = "servings"
    )]
    pub(super) factor: Option<Factor>,
    /// Scale to this many servings (with --serves: the benchmark's recipes do not say how many
    /// they serve).
    #[arg(long, value_name = "N", requires = "serves")]
    pub(super) servings: Option<u32>,
    /// How many the network serves as written.
    #[arg(long, value_name = "M", requires = "servings")]
    pub(super) serves: Option<u32>,
    #[command(flatten)]
    pub(super) answer: AnswerArgs,
    /// Also write the scaled network to this .solution file.
    #[arg(long, value_name = "FILE")]
    pub(super) network_output: Option<PathBuf>,
}

impl ScaleArgs {
    pub(super) fn run(self, Session(data, _, out, err, _): Session<'_>) -> Outcome {
        let factor = match (self.factor, self.servings, self.serves) {
            (Some(factor), _, _) => factor,
            (None, Some(servings), Some(serves)) => {
                Factor::servings(servings, serves).map_err(|e| AppError::Failed(e.to_string()))?
            }
            _ => {
                return Err(AppError::Failed(
                    "give --factor, or --servings with --serves".into(),
                ));
            }
        };
        let (recipe, outputs) = self.answer.split(self.network_output);
        let opts = ScaleOptions {
            file: self.file,
            recipe,
            data,
            factor,
            outputs,
        };
        scale::run(&opts, out, err)
    }
}

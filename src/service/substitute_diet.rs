//! The diet filter of `substitute --suggest CLASS --diet NAME`: a diet's name turned into the
//! [`DietFilter`] the suggestions ask. The diet table (`kitchens/diet.json`, issue 41's diet
//! part) is built on a branch of its own; this is the one place it is wired in. Until it is in
//! the build, a diet is refused with that reason rather than answered from a guess.

use super::substitute::DietFilter;

/// The filter of the diet named `name`, or why there is none.
pub fn diet_filter(name: &str) -> Result<Box<dyn DietFilter>, String> {
    Err(format!(
        "--diet {name}: the diet table (kitchens/diet.json) is not in this build yet, so suggestions cannot be filtered by diet; leave --diet out"
    ))
}

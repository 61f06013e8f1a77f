//! Did-you-mean: the known names nearest to an unknown one. The validator, the ontology, the
//! benchmark, the report's metric names and the translators all suggest with it, so one rule
//! decides what counts as close.

/// Up to `n` candidates closest to `word` by edit distance (within a third of its length).
pub fn closest<'c>(
    word: &str,
    candidates: impl Iterator<Item = &'c str>,
    n: usize,
) -> Vec<&'c str> {
    let length = word.chars().count();
    let limit = (length / 3).max(2);
    // The distance is at least the difference in length: a candidate too short or too long is
    // dropped unmeasured, so a huge unknown token costs its length, not its length times the
    // vocabulary's.
    let mut scored: Vec<(usize, &str)> = candidates
        .filter(|c| c.chars().count().abs_diff(length) <= limit)
        .map(|c| (strsim::levenshtein(word, c), c))
        .filter(|(d, _)| *d <= limit)
        .collect();
    scored.sort_unstable();
    scored.dedup();
    scored.into_iter().take(n).map(|(_, c)| c).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closest_keeps_candidates_within_a_third_of_the_word() {
        assert_eq!(
            closest("fecth", ["fetch", "bake"].into_iter(), 3),
            ["fetch"]
        );
        assert_eq!(
            closest("buter", ["butter", "water", "sugar"].into_iter(), 3),
            ["butter", "water"]
        );
    }
}

//! Keeps `grammar/solution.ebnf` and the parser in step: every production has test vectors, and
//! the productions covered here are exactly those the grammar file defines.

use cookingbot::base::number::Number;
use cookingbot::language::ast::Arg;
use cookingbot::language::parse::parse;
use std::collections::BTreeSet;

/// Production → lines that exercise it; each must parse without errors inside a recipe.
const VECTORS: &[(&str, &[&str])] = &[
    ("file", &["#r\n(get-kitchen ?k)"]),
    ("line", &["(get-kitchen ?k)"]),
    ("blank-line", &["", "    "]),
    ("comment-line", &[";", "; a note (with parens"]),
    ("header-line", &["#r", "#  R  trailing words", "#r\r"]),
    ("recipe-id", &["#almond-crescent-cookies"]),
    ("predicate-line", &["(p ?a) trailing", "(p ?a)\r"]),
    ("predicate", &["(p)", "( p ?a )", "(P\t?a)"]),
    ("primitive-name", &["(fetch-and-proportion ?a)"]),
    ("argument", &["(p ?a 1 x (y) 'z)"]),
    ("variable", &["(p ?a ?A ? ?a-b.c)"]),
    ("number", &["(p 1 1/2 0.5)"]),
    ("integer", &["(p 0 -5 +7 12.)"]),
    ("ratio", &["(p 1/2 -3/4 +4/2)"]),
    ("float", &["(p 0.5 .25 -.5 1e3 1.5e-2 2.e1)"]),
    ("exponent", &["(p 1e3 1E+3 1s0 1f-1)"]),
    ("exponent-marker", &["(p 1e0 1s0 1f0 1E0 1S0 1F0)"]),
    ("sign", &["(p +1 -1)"]),
    ("symbol", &["(p butter Medium-Bowl 1+ - a/b 1.2.3)"]),
    ("list", &["(p () (a b) ((c)))"]),
    ("quoted", &["(p 'x '(a b))"]),
    ("string", &["(p \"s\" \"with \\\" quote\")"]),
    ("string-char", &["(p \"a\\\\b\")"]),
    ("whitespace", &["(p\t?a \r?b\u{c}?c\u{7f}?d)"]),
    ("constituent", &["(p a!b$c%d&e*f<g=h>i@j[k]l^m_n{o}p~q)"]),
    ("digit", &["(p 0123456789)"]),
    ("any-char", &["(p ?a) ∀ unicode"]),
    ("lf", &["#r\n(p ?a)"]),
    ("cr", &["(p ?a)\r"]),
    ("tab", &["(p\t?a)"]),
    ("ff", &["(p\u{c}?a)"]),
    ("del", &["(p\u{7f}?a)"]),
];

fn productions() -> BTreeSet<String> {
    let text = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/grammar/solution.ebnf"
    ));
    // Drop comments, then take every `name =` at the start of a definition.
    let mut without_comments = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("(*") {
        without_comments.push_str(&rest[..i]);
        rest = rest[i..].find("*)").map_or("", |j| &rest[i + j + 2..]);
    }
    without_comments.push_str(rest);
    without_comments
        .lines()
        .filter_map(|l| l.split_once('=').map(|(name, _)| name.trim()))
        .filter(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_lowercase() || c == '-'))
        .map(str::to_string)
        .collect()
}

#[test]
fn every_production_has_test_vectors() {
    let covered: BTreeSet<String> = VECTORS.iter().map(|(n, _)| n.to_string()).collect();
    assert_eq!(productions(), covered);
}

#[test]
fn test_vectors_parse_cleanly() {
    for (production, lines) in VECTORS {
        for line in *lines {
            let text = if line.starts_with('#') {
                line.to_string()
            } else {
                format!("#r\n{line}\n")
            };
            let p = parse(&text);
            let errors: Vec<_> = p.diagnostics.iter().filter(|d| d.is_error()).collect();
            assert!(errors.is_empty(), "{production}: {line:?}: {errors:?}");
        }
    }
}

#[test]
fn vectors_read_as_the_grammar_says() {
    let args = |line: &str| {
        parse(&format!("#r\n{line}\n")).file.recipes[0].predicates[0]
            .args
            .clone()
    };
    assert_eq!(
        args("(p ?A ?)"),
        [Arg::Var("a".into()), Arg::Var("".into())]
    );
    assert_eq!(
        args("(p 12. +4/2)"),
        [Arg::Num(Number::int(12)), Arg::Num(Number::int(2))]
    );
    assert_eq!(
        args("(p 1.2.3 a/b)"),
        [Arg::Sym("1.2.3".into()), Arg::Sym("a/b".into())]
    );
    assert_eq!(args("(p 2.e1)"), [Arg::Num(Number::float(20.0))]);
    let header = parse("#  R  trailing words\n").file.recipes[0].id.clone();
    assert_eq!(header, "r");
}

mod lang_support;
use lang_support as common;
use cookingbot::language::validate::{check, Validator};
use cookingbot::profile::Profile;
#[test]
fn explore() {
    let classes = common::TestClasses::load();
    let ids = common::known_recipe_ids();
    let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
    println!("ids {}", ids.len());
    let args: Vec<String> = std::env::var("FILES").unwrap().split(':').map(String::from).collect();
    let profile: Profile = std::env::var("PROFILE").unwrap().parse().unwrap();
    let v = Validator::new(profile).with_classes(&classes).with_known_recipes(&ids);
    for f in args {
        let t = std::fs::read_to_string(&f).unwrap();
        let d = check(&t, &v);
        for x in &d { println!("{f}: {} {:?} {}", x.kind, cookingbot::language::diagnostic::line_col(&t, x.span.start), x.message); }
    }
}

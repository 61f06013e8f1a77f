//! The real-model end-to-end test: SmolLM2-135M-Instruct (GGUF) served by llama.cpp through
//! xllamacpp's prebuilt CPU wheel on 127.0.0.1 with one thread; one short recipe translated
//! through the real server with the grammar and the repair loop. Runs when
//! `COOKINGBOT_SMOLLM2_GGUF` names the model file (`.ci/run` installs both); the answer must be
//! a structurally valid network.

use crate::common;
use cookingbot::base::profile::Profile;
use cookingbot::language::parse::parse;
use cookingbot::language::validate::{Validator, check};
use cookingbot::simulation::Model;
use cookingbot::translate::Translator;
use cookingbot::translate::llm::chat::{
    ChatBackend, ChatError, ChatRequest, HttpBackend, ServerConfig,
};
use cookingbot::translate::llm::{LlmConfig, LlmTranslator};
use cookingbot::translate::recipe_text::from_text;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Records the model's answers on their way to the translator.
struct Recording {
    inner: HttpBackend,
    answers: Arc<Mutex<Vec<String>>>,
}

impl ChatBackend for Recording {
    fn complete(&mut self, request: &ChatRequest, deadline: Instant) -> Result<String, ChatError> {
        let a = self.inner.complete(request, deadline)?;
        self.answers.lock().unwrap().push(a.clone());
        Ok(a)
    }
}

#[test]
fn smollm2_translates_a_short_recipe_into_a_valid_network() {
    let Some((_server, url)) = common::llama::smollm2() else {
        return;
    };

    let model = Model::builtin(Profile::R2024);
    let answers = Arc::new(Mutex::new(Vec::new()));
    let backend = Recording {
        inner: HttpBackend::new(ServerConfig {
            url,
            key: None,
            retries: 5,
            backoff: Duration::from_secs(1),
        }),
        answers: answers.clone(),
    };
    let config = LlmConfig {
        examples: 0,
        repair_rounds: 1,
        grammar: true,
        temperature: 0.0,
        max_tokens: 200,
        deadline: Duration::from_secs(600),
        ..LlmConfig::default()
    };
    let mut t = LlmTranslator::new(&model, Box::new(backend), config, Vec::new());
    let recipe = from_text(
        "# cucumber-salt\n1 cucumber\n1 teaspoon salt\n\nSlice the cucumber and toss it with the salt.\n",
        "x",
    )
    .unwrap();
    let out = t.translate(&recipe, 0).unwrap();

    // The grammar holds the model to the language: every answer is actions of the language,
    // except that the token limit may cut the last one short.
    let answers = answers.lock().unwrap();
    assert!(
        !answers.is_empty(),
        "the server answered nothing: {:?}",
        out.notes
    );
    for a in answers.iter() {
        assert!(a.starts_with("(get-kitchen ?kitchen)\n"), "{a}");
        let complete: Vec<&str> = a.lines().filter(|l| l.ends_with(')')).collect();
        let cut = a.lines().filter(|l| !l.ends_with(')')).count();
        assert!(
            cut <= 1 && a.lines().take(complete.len()).eq(complete.iter().copied()),
            "{a}"
        );
        let text = format!("#cucumber-salt\n{}\n", complete.join("\n"));
        let parsed = parse(&text);
        assert!(!parsed.has_errors(), "{a}\n{:?}", parsed.diagnostics);
    }
    // Whatever the small model got right, the kept network validates.
    let validator = Validator::new(Profile::R2024).with_classes(&model.onto);
    let errors: Vec<_> = check(&out.solution, &validator)
        .1
        .into_iter()
        .filter(|d| d.is_error())
        .collect();
    assert!(errors.is_empty(), "{}\n{errors:?}", out.solution);
    assert!(
        out.solution
            .starts_with("#cucumber-salt\n(get-kitchen ?kitchen)\n")
    );
}

//! The server's memory of [`describe`](super::describe)'s answers, bounded: past [`CAPACITY`]
//! texts it starts again from nothing.

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex};

/// How many details texts are remembered at most.
pub const CAPACITY: usize = 4096;

/// Answers by kind, then by details text: both looked up by borrow, so a remembered
/// answer costs no allocation but its copy.
type Answers = HashMap<String, HashMap<String, String>>;
static ANSWERS: LazyLock<Mutex<Answers>> = LazyLock::new(Default::default);

/// `describe(kind, details)`, from memory when this pair was described before.
pub fn get_or_describe(kind: &str, details: &str, describe: fn(&str, &str) -> String) -> String {
    let remembered = ANSWERS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(kind)
        .and_then(|of_kind| of_kind.get(details))
        .cloned();
    if let Some(text) = remembered {
        return text;
    }
    let text = describe(kind, details);
    let mut answers = ANSWERS.lock().unwrap_or_else(|e| e.into_inner());
    if count(&answers) >= CAPACITY {
        answers.clear();
    }
    answers
        .entry(kind.to_owned())
        .or_default()
        .insert(details.to_owned(), text.clone());
    text
}

fn count(answers: &Answers) -> usize {
    answers.values().map(HashMap::len).sum()
}

/// How many texts are remembered.
pub fn len() -> usize {
    count(&ANSWERS.lock().unwrap_or_else(|e| e.into_inner()))
}

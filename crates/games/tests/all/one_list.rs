//! The games are listed in one place: this crate. Any other file of code (Rust, the page's
//! scripts and styles, the tests in any language, the scripts, the manifests) that names
//! every game, or every game but one, within a few lines is a list kept by hand, which a
//! new game would leave behind. Documentation may name them all: it teaches.

use std::path::{Path, PathBuf};

/// Lines a hand-kept list spans at most (one per game, and a little more).
const WINDOW: usize = 8;

/// The kinds of file that hold code.
const CODE: &[&str] = &[
    "rs", "js", "mjs", "html", "css", "sh", "py", "toml", "json", "yml", "yaml",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every file of code under `dir`, but build output, installed packages and this crate.
fn code_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            let skip = ["target", "node_modules", ".git"].contains(&name.as_str())
                || name.starts_with(".venv")
                || path == root().join("crates/games");
            if !skip {
                code_files(&path, out);
            }
        } else if path
            .extension()
            .is_some_and(|e| CODE.contains(&e.to_string_lossy().as_ref()))
        {
            out.push(path);
        }
    }
}

/// Whether `text` names `id` as a word of its own (`doudizhu` is not in `doudizhu5`).
fn names(text: &str, id: &str) -> bool {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(id).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + id.len()..].chars().next();
        !before.is_some_and(word) && !after.is_some_and(word)
    })
}

/// The first line at which `text` names at least `enough` of `ids` within [`WINDOW`] lines.
fn list_at(text: &str, ids: &[&str], enough: usize) -> Option<usize> {
    let lines: Vec<&str> = text.lines().collect();
    (0..lines.len()).find(|&i| {
        let window = lines[i..(i + WINDOW).min(lines.len())].join("\n");
        ids.iter().filter(|id| names(&window, id)).count() >= enough
    })
}

#[test]
fn no_file_but_this_crate_lists_the_games() {
    let registry = games::registry();
    let ids = registry.ids();
    assert!(ids.len() >= 2, "{ids:?}");
    let mut files = Vec::new();
    code_files(&root(), &mut files);
    assert!(
        files.len() > 100,
        "the repository's files are found: {}",
        files.len()
    );
    let lists: Vec<String> = files
        .iter()
        .filter_map(|path| {
            let text = std::fs::read_to_string(path).ok()?;
            let line = list_at(&text, &ids, ids.len() - 1)?;
            Some(format!(
                "{}:{}",
                path.strip_prefix(root()).unwrap_or(path).display(),
                line + 1
            ))
        })
        .collect();
    assert!(
        lists.is_empty(),
        "these files list the games by hand; read them from games::registry() (Rust) or \
         /api/games (the page) instead: {lists:#?}"
    );
}

/// The check itself finds a list, and only a list.
#[test]
fn a_list_is_found_and_a_mention_is_not() {
    let ids = ["doudizhu", "doudizhu5", "bigtwo", "tenhalf", "gomoku"];
    let list = "const GAMES = [\n  'doudizhu',\n  'doudizhu5',\n  'bigtwo',\n  'tenhalf',\n];";
    assert_eq!(list_at(list, &ids, 4), Some(0));
    let apart = format!("doudizhu\n{}bigtwo tenhalf gomoku", "\n".repeat(WINDOW));
    assert_eq!(list_at(&apart, &ids, 4), None);
    assert!(!names("doudizhu5", "doudizhu"));
    assert!(names("play doudizhu now", "doudizhu"));
}

/// The screens the page has: the keys of `SCREENS` in web/js/table.js
/// (`{ cards: cardtable, tenhalf, board: gomoku }`).
fn page_screens() -> Vec<String> {
    let table = std::fs::read_to_string(root().join("web/js/table.js")).expect("web/js/table.js");
    let start = table
        .find("const SCREENS = {")
        .expect("SCREENS in web/js/table.js");
    let body = &table[start + "const SCREENS = {".len()..];
    let body = &body[..body.find('}').expect("the end of SCREENS")];
    body.split(',')
        .map(|entry| entry.split(':').next().unwrap_or("").trim().to_string())
        .filter(|key| !key.is_empty())
        .collect()
}

/// Every game says how the hall shows it, in both of the hall's languages, with a screen
/// the page has.
#[test]
fn every_game_has_its_names_a_line_and_a_screen_of_the_page() {
    let screens = page_screens();
    assert!(screens.len() >= 2, "{screens:?}");
    for game in games::registry().games() {
        let shown = game.presentation();
        for text in [
            shown.name_zh,
            shown.name_en,
            shown.blurb_zh,
            shown.blurb_en,
            shown.icon,
        ] {
            assert!(!text.trim().is_empty(), "{}: {shown:?}", game.id());
        }
        assert!(
            screens.iter().any(|s| s == shown.screen),
            "{}: the page has no screen '{}' (it has {screens:?})",
            game.id(),
            shown.screen
        );
    }
}

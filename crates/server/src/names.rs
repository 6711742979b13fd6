//! Account names: which may be registered, the form a name is kept in, and the key by
//! which two names are the same name.
//!
//! A name is kept in Unicode's compatibility form (NFKC), so a player who types "ｍｉａ"
//! with a Chinese input method left in full width registers, and logs in as, "mia".
//! Two names are one name when their [`key`]s are equal: the compatibility form with
//! every letter lowercased, in any script ("Élise" is "élise"), then reduced to what it
//! looks like: Unicode's confusable skeleton (UTS #39), which writes every letter that
//! passes for another as that other ("ɑ" as "a", "ǀ" as "l", "〇" as "o",
//! Cyrillic "расо" as Latin "paco", "m" as "rn"). So no name may be registered that looks
//! like a taken one, within one script as across them. The key is computed here,
//! the same way for every store, and kept beside the name (`users.name_key`), so a name
//! is taken, found and matched alike on SQLite and on PostgreSQL, whatever the database's
//! own idea of case, and a hall copied from one to the other keeps every account
//! reachable.
//!
//! A name is written in one script, as Unicode's "highly restrictive" identifiers are
//! (UTS #39), except that any Chinese character counts: "Élise", "小明", "міа" and
//! "tatsuya_たつや" may be registered, "mіa" may not. Its "і" is Cyrillic, and such a mix
//! is how one player passes for another, a moderator most of all. Latin letters may go
//! with Chinese, Japanese or Korean, as people write them together. A letter carries at
//! most two combining marks (Vietnamese needs two), and nothing of no width or that turns
//! the direction of text may be in a name: only letters, digits, '_' and '-' are.
//!
//! The skeleton is taken of the lowercased name, since names are one whatever their case:
//! look-alikes of one case only (a capital "I" beside a small "l") are not caught, the
//! price of "mail" and "mali" staying two names.

use unicode_normalization::char::is_combining_mark;
use unicode_normalization::UnicodeNormalization;
use unicode_script::Script;
use unicode_security::mixed_script::AugmentedScriptSet;

/// The prefixes of the names the hall gives: a guest's (`guest-…`) and a deleted
/// account's (`deleted-…`). Nobody may register one.
const RESERVED: [&str; 2] = ["guest-", "deleted-"];

/// The form a name is kept and shown in: NFKC, which turns full-width letters and digits
/// into the usual ones and ligatures into their letters.
pub fn normal(name: &str) -> String {
    name.nfkc().collect()
}

/// The case-folded form: [`normal`], every letter lowercased, and normalized again
/// (lowercasing can leave a string that is not in NFKC). A dotted capital İ lowercases to
/// "i" and a combining dot, which no name may hold otherwise; the dot is dropped, so
/// "ÉLİSE" is élise, as Turkish reads it, and not a look-alike beside her.
fn folded(name: &str) -> String {
    normal(name)
        .to_lowercase()
        .replace("i\u{307}", "i")
        .nfkc()
        .collect()
}

/// The key two names are one name by: the [`folded`] name's confusable skeleton (UTS
/// #39), lowercased again (the skeleton writes "〇" as a capital "O") and composed.
pub fn key(name: &str) -> String {
    let folded: String = folded(name).chars().map(stroke_as_l).collect();
    let skeleton: String = unicode_security::skeleton(&folded).collect();
    skeleton.to_lowercase().nfc().collect()
}

/// The vertical strokes 丨 (U+4E28, Chinese) and ㄧ (U+3127, Bopomofo) as "l": UTS #39's
/// table leaves them to themselves, yet a name may mix Latin with Chinese, and "a丨ice"
/// beside alice is her name.
fn stroke_as_l(c: char) -> char {
    match c {
        '\u{4e28}' | '\u{3127}' => 'l',
        c => c,
    }
}

/// Combining marks a letter of a name may carry.
const MARKS_PER_LETTER: usize = 2;

/// Whether a name (in its [`normal`] form) may be registered: 2 to 24 letters or digits,
/// '_' or '-', in [`one_script`], at most [`MARKS_PER_LETTER`] marks on a letter, not
/// starting with (or looking like) a name the hall gives.
pub fn valid(name: &str) -> bool {
    let n = name.chars().count();
    let (folded, key) = (folded(name), key(name));
    (2..=24).contains(&n)
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
        && one_script(name)
        && marks_in_a_row(name) <= MARKS_PER_LETTER
        // A key of `=` first is an older account's exact name (`store::rows`); a letter
        // that looks like "=" ("꞊") does not start one.
        && !key.starts_with('=')
        && !RESERVED
            .iter()
            .any(|p| folded.starts_with(p) || key.starts_with(&self::key(p)))
}

/// The most combining marks in a row in `name` (on one letter).
fn marks_in_a_row(name: &str) -> usize {
    let (mut most, mut run) = (0, 0);
    for c in name.chars() {
        run = if is_combining_mark(c) { run + 1 } else { 0 };
        most = most.max(run);
    }
    most
}

/// Whether a name's letters are of one script (digits, '_' and '-' belong to every
/// script), or Latin beside Chinese, Japanese or Korean. This is UTS #39's "highly
/// restrictive" level without its list of the characters fit for identifiers, which
/// leaves out the rarer Chinese characters that some people's names are written with.
pub fn one_script(name: &str) -> bool {
    let every = AugmentedScriptSet::for_str(name);
    if !every.is_empty() {
        return true;
    }
    let mut beside_latin = AugmentedScriptSet::default();
    for c in name.chars() {
        let scripts = AugmentedScriptSet::for_char(c);
        if !scripts.base.contains_script(Script::Latin) {
            beside_latin.intersect_with(scripts);
        }
    }
    beside_latin.hanb || beside_latin.jpan || beside_latin.kore
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_rules() {
        for good in [
            "ab",
            "小明",
            "player_1",
            "a-b",
            "Élise",
            &"x".repeat(24),
            "міа",
        ] {
            assert!(valid(good), "{good}");
        }
        for bad in [
            "a",
            "",
            "has space",
            "guest-12",
            "Guest-x",
            "deleted-7",
            "ＧＵＥＳＴ-1",
            "mіa",
            "a;b",
            &"x".repeat(25),
        ] {
            assert!(!valid(bad), "{bad}");
        }
    }

    #[test]
    fn a_name_keeps_to_one_script_or_latin_beside_chinese_japanese_korean() {
        for one in [
            "mia",
            "Élise",
            "σοφια",
            "міа",
            "小明",
            "𠮷野家",
            "堃喆_2",
            "漢字ひらがなカタカナ",
            "小明abc",
            "tatsuya_たつや",
            "민준kim",
            "ئۆ",
        ] {
            assert!(one_script(one), "{one}");
        }
        // A Cyrillic і among Latin letters; Latin with Cyrillic, Greek, or Chinese with
        // Greek.
        for mixed in ["mіa", "abcабв", "Ωmega", "中文Ελληνικά"] {
            assert!(!one_script(mixed), "{mixed}");
        }
    }

    #[test]
    fn a_name_that_looks_like_another_is_that_name() {
        for (taken, look_alike) in [
            ("alice", "a丨ice"),
            ("bob", "b〇b"),
            ("alice", "aǀice"),
            ("mia", "mıa"),
            ("alice", "ɑlice"),
            ("paco", "расо"),
            ("модӏ", "мод1"),
            ("bob", "B0B"),
            ("alice", "aㄧice"),
        ] {
            assert_eq!(key(taken), key(look_alike), "{taken} {look_alike}");
        }
        assert_ne!(key("mail"), key("mali"));
        assert_ne!(key("elise"), key("élise"));
        // Nor may a look-alike pass for a name the hall gives.
        assert!(!valid("de1eted-7"));
    }

    #[test]
    fn a_letter_carries_two_marks_at_most() {
        // Accents typed apart are composed first (a name is kept in NFKC).
        assert!(valid(&normal("vie\u{302}\u{323}t")));
        // Marks that are letters' parts (a Devanagari vowel sign, a nasal mark): two.
        assert!(valid("कि\u{902}"));
        assert!(!valid(&format!("क{}", "\u{902}".repeat(3))));
    }

    #[test]
    fn full_width_letters_are_kept_as_the_usual_ones() {
        assert_eq!(normal("ｍｉａ１２"), "mia12");
        assert_eq!(normal("小明"), "小明");
        assert_eq!(normal("ﬁsh"), "fish");
    }

    #[test]
    fn one_name_whatever_the_case_in_any_script() {
        assert_eq!(key("Mia"), key("mIA"));
        assert_eq!(key("ÉLISE"), key("élise"));
        assert_eq!(key("ΣΟΦΙΑ"), key("σοφια"));
        assert_eq!(key("ＭＩＡ"), key("mia"));
        // Decomposed and composed accents are one name too.
        assert_eq!(key("e\u{301}lise"), key("élise"));
        assert_eq!(key("ÉLİSE"), key("élise"));
        assert_eq!(key("İstanbul"), key("istanbul"));
        assert_ne!(key("mia"), key("mio"));
    }
}

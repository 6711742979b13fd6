//! What a chat line (and a ban's reason) may hold when it is passed on: text as people
//! type it, and nothing that changes how the text around it reads.
//!
//! Taken out: control characters; the marks that reorder text (a right-to-left override
//! turns `abc\u{202e}gnp.exe` into what reads as `abcexe.png`), which could also make a
//! line seem to come from someone else; the characters of no width, which hide words from
//! mutes and moderators' eyes ("ba\u{200b}d" is not "bad") and make lines that look
//! empty; and marks stacked past [`MARKS_PER_LETTER`] on one letter, which spill over the
//! lines above and below. Letters with their accents, in any script, and emoji pass.

use crate::hall::Refusal;
use crate::protocol::ErrorCode;
use unicode_normalization::char::is_combining_mark;

/// Combining marks kept on one letter: enough for any language's accents (Vietnamese
/// stacks two on a vowel, Indic scripts a vowel sign and a nasal mark), not for a tower of
/// them.
pub const MARKS_PER_LETTER: usize = 3;

/// Whether `c` changes the direction text runs in: the embeddings and overrides
/// (U+202A–U+202E), the isolates (U+2066–U+2069) and the direction marks (U+200E, U+200F,
/// U+061C).
pub fn is_direction_mark(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{061c}')
}

/// Whether `c` is a character of no width: the zero-width space, joiners and non-joiner
/// (U+200B–U+200D), the word joiner (U+2060) and the byte order mark (U+FEFF).
pub fn is_zero_width(c: char) -> bool {
    matches!(c, '\u{200b}'..='\u{200d}' | '\u{2060}' | '\u{feff}')
}

/// A chat line as it is passed on: control characters, direction marks and characters of
/// no width removed, at most [`MARKS_PER_LETTER`] marks on a letter, trimmed, not empty
/// and not longer than `max` characters.
pub fn clean(text: &str, max: usize) -> Result<String, Refusal> {
    let mut clean = String::with_capacity(text.len());
    let mut marks = 0;
    for c in text.chars() {
        if c.is_control() || is_direction_mark(c) || is_zero_width(c) {
            continue;
        }
        if is_combining_mark(c) {
            marks += 1;
            if marks > MARKS_PER_LETTER {
                continue;
            }
        } else {
            marks = 0;
        }
        clean.push(c);
    }
    let clean = clean.trim();
    if clean.is_empty() {
        return Err(Refusal::new(ErrorCode::BadChat, "say something"));
    }
    if clean.chars().count() > max {
        return Err(Refusal::new(
            ErrorCode::BadChat,
            format!("a chat line is at most {max} characters"),
        ));
    }
    Ok(clean.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_and_accents_in_any_script_pass_as_they_are() {
        for line in ["好牌！", "Việt Nam", "नमस्ते", "مرحبا", "café 🎉", "e\u{301}"]
        {
            assert_eq!(clean(line, 300).ok().as_deref(), Some(line), "{line}");
        }
    }

    #[test]
    fn what_changes_how_text_reads_is_taken_out() {
        let said = |t: &str| clean(t, 300).map_err(|r| r.code);
        assert_eq!(said("abc\u{202e}gnp.exe"), Ok("abcgnp.exe".into()));
        assert_eq!(said("a\u{2066}b\u{2069}\u{200f}\u{61c}"), Ok("ab".into()));
        assert_eq!(said("ba\u{200b}d\u{feff}\u{2060}"), Ok("bad".into()));
        assert_eq!(said("\u{200b}\u{200d}"), Err(ErrorCode::BadChat));
        let tower = format!("a{}b", "\u{301}".repeat(240));
        assert_eq!(said(&tower), Ok(format!("a{}b", "\u{301}".repeat(3))));
    }
}

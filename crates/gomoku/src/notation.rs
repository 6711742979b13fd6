//! Points as players read and type them: `h8` — the column letter and the row number
//! printed around the board, rows counted from the bottom as on a renju board. This is the
//! one notation a person sees (the board, the move log, hints and messages). Typing `7,7`
//! (0-based `x,y` from the top left, the form of the judge and the Gomocup protocol) is
//! also understood, for people who come from those.

use crate::board::Point;

/// A point as `h8`: column `a` is the left edge, row `1` the bottom edge. A point off a
/// `size` board has no such name and is written `(x,y)` instead.
pub fn format_point(p: Point, size: u8) -> String {
    if p.x >= size || p.y >= size || size > 26 {
        return format!("({},{})", p.x, p.y);
    }
    let col = char::from(b'a' + p.x);
    let row = u32::from(size) - u32::from(p.y);
    format!("{col}{row}")
}

/// Text that names no point of the board, explained in the board's own notation (the
/// letters and numbers printed around it), as a person typed it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "'{text}' is not a point of the {size}×{size} board: type a column letter a–{last} \
     and a row number 1–{size}, like h8",
    last = last_column(.size)
)]
pub struct PointError {
    /// What was typed, trimmed.
    pub text: String,
    /// The board's side.
    pub size: u8,
}

/// The letter of the last column of a `size` board.
fn last_column(size: &u8) -> char {
    char::from(b'a' + (*size).clamp(1, 26) - 1)
}

/// Reads `h8`, `H8` or `7,7` (also `7 7`) on a board of side `size`.
pub fn parse_point(text: &str, size: u8) -> Result<Point, PointError> {
    let t = text.trim();
    let bad = || PointError {
        text: t.to_string(),
        size,
    };
    let mut chars = t.chars();
    let first = chars.next().ok_or_else(bad)?;
    let p = if first.is_ascii_alphabetic() {
        let x = first.to_ascii_lowercase() as u32 - 'a' as u32;
        let row: u32 = chars.as_str().trim().parse().map_err(|_| bad())?;
        if row == 0 || row > u32::from(size) || x >= u32::from(size) {
            return Err(bad());
        }
        Point::new(x as u8, (u32::from(size) - row) as u8)
    } else {
        let mut parts = t
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|s| !s.is_empty());
        let x: u32 = parts.next().ok_or_else(bad)?.parse().map_err(|_| bad())?;
        let y: u32 = parts.next().ok_or_else(bad)?.parse().map_err(|_| bad())?;
        if parts.next().is_some() || x >= u32::from(size) || y >= u32::from(size) {
            return Err(bad());
        }
        Point::new(x as u8, y as u8)
    };
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn h8_is_the_centre_of_the_15_board() {
        assert_eq!(parse_point("h8", 15), Ok(Point::new(7, 7)));
        assert_eq!(parse_point("7,7", 15), Ok(Point::new(7, 7)));
        assert_eq!(parse_point("a1", 15), Ok(Point::new(0, 14)));
        assert_eq!(format_point(Point::new(0, 14), 15), "a1");
        assert!(parse_point("p1", 15).is_err());
        assert!(parse_point("a0", 15).is_err());
        assert!(parse_point("15,0", 15).is_err());
        assert!(parse_point("", 15).is_err());
        assert!(parse_point("1,2,3", 15).is_err());
    }

    #[test]
    fn points_off_the_board_are_written_without_a_board_name() {
        assert_eq!(format_point(Point::new(15, 3), 15), "(15,3)");
        assert_eq!(format_point(Point::new(200, 200), 15), "(200,200)");
        assert_eq!(format_point(Point::new(19, 0), 20), "t20");
    }

    #[test]
    fn a_bad_point_is_explained_in_board_notation() {
        let e = parse_point("z99", 15).unwrap_err().to_string();
        assert!(
            e.contains("a–o") && e.contains("1–15") && e.contains("h8"),
            "{e}"
        );
        assert!(!e.contains("7,7"), "{e}");
    }
}

//! Points as players type them: `h8` (column letter, row number counted from the bottom, as
//! on a renju board) or `7,7` (0-based `x,y` from the top left, as in the judge and the
//! Gomocup protocol).

use crate::board::Point;

/// A point as `h8`: column `a` is the left edge, row `1` the bottom edge.
pub fn format_point(p: Point, size: u8) -> String {
    let col = char::from(b'a' + p.x);
    let row = u32::from(size) - u32::from(p.y);
    format!("{col}{row}")
}

/// Reads `h8`, `H8` or `7,7` (also `7 7`) on a board of side `size`.
pub fn parse_point(text: &str, size: u8) -> Result<Point, String> {
    let t = text.trim();
    let bad = || {
        format!(
            "'{t}' is not a point: type a column letter and a row number (h8) or x,y (7,7), \
             on a {size}×{size} board"
        )
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
}

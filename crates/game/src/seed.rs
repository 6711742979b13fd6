//! Seeds: the 32 bytes every shuffle and draw of a game comes from.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The 32 random bytes a game's every shuffle and draw comes from.
///
/// A table publishes a commitment to its seed before the deal and reveals the seed when the
/// game ends; anyone can then replay the record and check that the deal was the one
/// committed to (`qipai verify`; see [`crate::fair`]). Written as 64 hex digits.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Seed(pub [u8; 32]);

impl Seed {
    /// A seed derived from a small number, for tests and `--seed N` on the command line.
    /// Distinct numbers give unrelated seeds.
    pub fn from_u64(n: u64) -> Seed {
        let mut h = Sha256::new();
        h.update(b"qipai seed");
        h.update(n.to_le_bytes());
        Seed(h.finalize().into())
    }

    /// The `index`-th child seed: self-play gives game `i` the seed `base.derive(i)`, so
    /// results do not depend on how games are spread over threads.
    pub fn derive(&self, index: u64) -> Seed {
        let mut h = Sha256::new();
        h.update(self.0);
        h.update(index.to_le_bytes());
        Seed(h.finalize().into())
    }

    /// The seed in hex.
    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }

    /// Reads what a person types after `--seed`: a small number (as for
    /// [`Seed::from_u64`]) or the 64 hex digits a finished game prints, so that "replay this
    /// deal" works with what was printed.
    pub fn from_text(s: &str) -> Result<Seed, SeedError> {
        let s = s.trim();
        if s.len() == 64 {
            return Seed::from_hex(s);
        }
        s.parse::<u64>()
            .map(Seed::from_u64)
            .map_err(|_| SeedError::NotASeed(s.to_string()))
    }

    /// Reads 64 hex digits.
    pub fn from_hex(s: &str) -> Result<Seed, SeedError> {
        let bytes = hex::decode(s.trim()).map_err(SeedError::NotHex)?;
        let arr: [u8; 32] = bytes
            .try_into()
            .map_err(|b: Vec<u8>| SeedError::WrongLength(b.len()))?;
        Ok(Seed(arr))
    }
}

/// Why text is not a seed. A person types seeds (`--seed`) and a record stores one, so
/// the message says what a seed looks like; the hex decoder's own error stays the source.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SeedError {
    /// Not hex digits (or an odd number of them).
    #[error("seed is not hex: {0}")]
    NotHex(#[source] hex::FromHexError),
    /// Hex, but not 32 bytes; the field is how many bytes it held.
    #[error("a seed is 64 hex digits (32 bytes)")]
    WrongLength(usize),
    /// Typed text that is neither a number nor 64 hex digits.
    #[error("a seed is a number or 64 hex digits (a printed seed), not '{0}'")]
    NotASeed(String),
}

impl std::fmt::Debug for Seed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Seed({})", self.to_hex())
    }
}

impl std::fmt::Display for Seed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_hex())
    }
}

impl Serialize for Seed {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_hex())
    }
}

impl<'de> Deserialize<'de> for Seed {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Seed::from_hex(&s).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_read_back_what_they_print() {
        let seed = Seed([7; 32]);
        assert_eq!(Seed::from_hex(&seed.to_hex()), Ok(seed));
        assert_eq!(Seed::from_text(&seed.to_string()), Ok(seed));
        assert_eq!(Seed::from_text(" 42 "), Ok(Seed::from_u64(42)));
        assert!(Seed::from_text("forty-two").is_err());
        assert!(Seed::from_text(&"z".repeat(64)).is_err());
        assert!(matches!(Seed::from_hex("zz"), Err(SeedError::NotHex(_))));
        assert_eq!(Seed::from_hex("abcd"), Err(SeedError::WrongLength(2)));
        assert_eq!(
            Seed::from_text("forty-two").unwrap_err().to_string(),
            "a seed is a number or 64 hex digits (a printed seed), not 'forty-two'"
        );
        assert_ne!(Seed::from_u64(1), Seed::from_u64(2));
        assert_ne!(seed.derive(0), seed.derive(1));
    }
}

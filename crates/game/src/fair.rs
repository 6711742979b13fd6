//! Fair deals: a seed the server commits to before the deal, mixed with the players' own
//! randomness, so that nobody — the server included — chooses the cards alone.
//!
//! The scheme (docs/fairness.md has a worked example):
//!
//! 1. The table draws a secret *server seed* `S` and publishes the [`commitment`]
//!    `C = sha256("qipai/commitment/v1" ‖ game ‖ id ‖ seats ‖ config ‖ S)` before anyone
//!    sends anything. `C` binds the seed to this very game: another id, another
//!    configuration or another seed gives another commitment.
//! 2. Each seat may send a [`Nonce`] (1–32 random bytes) before the deal. The nonces are
//!    public: every player sees them all when the cards are dealt.
//! 3. The cards come from the *game seed* `G =` [`game_seed`]`(S, nonces)`.
//! 4. After the game the server reveals `S`. Anyone recomputes `C` from `S` and compares it
//!    with the one shown before the deal, recomputes `G`, and replays every action.
//!
//! A server that changes `S` after committing fails step 4's first check; one that ignores
//! a nonce deals other cards than `G` gives, so the recorded actions no longer replay; one
//! that leaves a nonce out of the record is caught by the player who sent it, who checks
//! that it is there (`qipai verify --nonce`). Because `S` is fixed before the nonces
//! arrive, the server cannot steer the deal by choosing `S` after seeing them.

use crate::Seed;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

/// The longest nonce, in bytes. Longer input adds nothing to 32 bytes of entropy and would
/// let a client bloat every record.
pub const MAX_NONCE_BYTES: usize = 32;

/// A player's contribution to a deal's randomness: 1 to [`MAX_NONCE_BYTES`] bytes, written
/// as hex. Clients should send 32 bytes from a cryptographic generator.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Nonce(Vec<u8>);

impl Nonce {
    /// A nonce from raw bytes, refused when empty or longer than [`MAX_NONCE_BYTES`].
    pub fn new(bytes: &[u8]) -> Result<Nonce, NonceError> {
        if bytes.is_empty() || bytes.len() > MAX_NONCE_BYTES {
            return Err(NonceError::Length(bytes.len()));
        }
        Ok(Nonce(bytes.to_vec()))
    }

    /// Reads a nonce written as hex.
    pub fn from_hex(s: &str) -> Result<Nonce, NonceError> {
        let bytes = hex::decode(s.trim()).map_err(NonceError::NotHex)?;
        Nonce::new(&bytes)
    }

    /// The nonce as lowercase hex.
    pub fn to_hex(&self) -> String {
        hex::encode(&self.0)
    }

    /// The raw bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.0
    }
}

/// Why bytes or text are not a nonce. A client sends nonces over the network, so the
/// message tells its author what a nonce is; a server refuses with it (`bad_nonce`).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum NonceError {
    /// No bytes, or more than [`MAX_NONCE_BYTES`]; the field is how many there were.
    #[error(
        "a nonce is 1 to {max} bytes (2 to {digits} hex digits)",
        max = MAX_NONCE_BYTES,
        digits = 2 * MAX_NONCE_BYTES
    )]
    Length(usize),
    /// Not hex digits (or an odd number of them).
    #[error("a nonce is hex: {0}")]
    NotHex(#[source] hex::FromHexError),
}

impl std::fmt::Debug for Nonce {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Nonce({})", self.to_hex())
    }
}

impl std::fmt::Display for Nonce {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_hex())
    }
}

impl Serialize for Nonce {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_hex())
    }
}

impl<'de> Deserialize<'de> for Nonce {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Nonce::from_hex(&s).map_err(serde::de::Error::custom)
    }
}

/// Feeds one length-prefixed field to the hash, so that no two different field lists
/// hash the same bytes ("ab" + "c" is not "a" + "bc").
fn field(h: &mut Sha256, bytes: &[u8]) {
    h.update((bytes.len() as u64).to_le_bytes());
    h.update(bytes);
}

/// The commitment a table publishes before the deal, in hex: sha256 over the domain
/// `qipai/commitment/v1`, then the game id, the game's own id, the number of seats (as a
/// decimal string), the configuration as [`canonical_json`] and the 32 seed bytes, each
/// field prefixed by its length as 8 little-endian bytes.
pub fn commitment(game: &str, id: &str, seats: usize, config: &Value, seed: &Seed) -> String {
    let mut h = Sha256::new();
    field(&mut h, b"qipai/commitment/v1");
    field(&mut h, game.as_bytes());
    field(&mut h, id.as_bytes());
    field(&mut h, seats.to_string().as_bytes());
    field(&mut h, canonical_json(config).as_bytes());
    field(&mut h, &seed.0);
    hex::encode(h.finalize())
}

/// The seed the cards are dealt from: sha256 over the domain `qipai/deal/v1`, the server
/// seed, then for each seat in order its nonce (a seat that sent none adds an empty
/// field), each field length-prefixed as in [`commitment`]. With no nonces at all (a
/// game played alone at a terminal, self-play) the list is empty but the hash still
/// applies, so every game is dealt the same way.
pub fn game_seed(seed: &Seed, nonces: &[Option<Nonce>]) -> Seed {
    let mut h = Sha256::new();
    field(&mut h, b"qipai/deal/v1");
    field(&mut h, &seed.0);
    h.update((nonces.len() as u64).to_le_bytes());
    for nonce in nonces {
        field(&mut h, nonce.as_ref().map_or(&[][..], Nonce::bytes));
    }
    Seed(h.finalize().into())
}

/// JSON with object keys sorted and no spaces: one text per value, whatever order a map
/// happened to be built in, so that a hash of a configuration is reproducible by hand
/// (Python: `json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False)`).
pub fn canonical_json(value: &Value) -> String {
    let mut out = String::new();
    write_canonical(value, &mut out);
    out
}

fn write_canonical(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for (i, key) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(key.clone()).to_string());
                out.push(':');
                write_canonical(&map[key], out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(item, out);
            }
            out.push(']');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The worked example of docs/fairness.md: if this changes, the page must change too
    /// (and every stored commitment would stop verifying). The expected values were
    /// computed independently, by the page's Python recipe with `hashlib`.
    #[test]
    fn the_documented_example_holds() {
        let seed = Seed::from_hex(&"11".repeat(32)).unwrap();
        let config = json!({"all_bombs_double": false, "first_bidder": null});
        let c = commitment("doudizhu", "t1-g1", 3, &config, &seed);
        assert_eq!(
            canonical_json(&config),
            r#"{"all_bombs_double":false,"first_bidder":null}"#
        );
        let nonces = [
            Some(Nonce::from_hex(&"aa".repeat(32)).unwrap()),
            None,
            Some(Nonce::from_hex("0102").unwrap()),
        ];
        let g = game_seed(&seed, &nonces);
        assert_eq!(
            c,
            "e399697886455b991c0965e5c0911d10a3ea14ea7669f1cd304efbef1464dac9"
        );
        assert_eq!(
            g.to_hex(),
            "67e94131d0ab52195707b5df162bf2fbca4434cecd16bad038de37b28d43e9f0"
        );
    }

    #[test]
    fn the_commitment_binds_every_field() {
        let seed = Seed::from_u64(1);
        let base = commitment("doudizhu", "g", 3, &json!({}), &seed);
        assert_ne!(base, commitment("bigtwo", "g", 3, &json!({}), &seed));
        assert_ne!(base, commitment("doudizhu", "h", 3, &json!({}), &seed));
        assert_ne!(base, commitment("doudizhu", "g", 4, &json!({}), &seed));
        assert_ne!(
            base,
            commitment("doudizhu", "g", 3, &json!({"a": 1}), &seed)
        );
        assert_ne!(
            base,
            commitment("doudizhu", "g", 3, &json!({}), &Seed::from_u64(2))
        );
        // Field boundaries cannot be moved: "ab"+"c" is not "a"+"bc".
        assert_ne!(
            commitment("ab", "c", 3, &json!({}), &seed),
            commitment("a", "bc", 3, &json!({}), &seed)
        );
    }

    #[test]
    fn every_nonce_and_its_seat_change_the_deal() {
        let seed = Seed::from_u64(1);
        let n = |s: &str| Some(Nonce::from_hex(s).unwrap());
        let all = [n("01"), n("02"), n("03")];
        let g = game_seed(&seed, &all);
        assert_ne!(g, game_seed(&seed, &[n("01"), n("02"), None]));
        assert_ne!(g, game_seed(&seed, &[n("02"), n("01"), n("03")]));
        assert_ne!(g, game_seed(&seed, &[n("0102"), None, n("03")]));
        assert_ne!(game_seed(&seed, &[]), game_seed(&seed, &[None]));
        assert_eq!(g, game_seed(&seed, &all));
    }

    #[test]
    fn nonces_are_one_to_thirty_two_bytes_of_hex() {
        assert_eq!(Nonce::from_hex(""), Err(NonceError::Length(0)));
        assert!(matches!(Nonce::from_hex("zz"), Err(NonceError::NotHex(_))));
        assert_eq!(
            Nonce::from_hex(&"ab".repeat(33)),
            Err(NonceError::Length(33))
        );
        assert_eq!(
            NonceError::Length(0).to_string(),
            "a nonce is 1 to 32 bytes (2 to 64 hex digits)"
        );
        assert!(Nonce::from_hex(&"ab".repeat(32)).is_ok());
        let n: Nonce = serde_json::from_value(json!("c0ffee")).unwrap();
        assert_eq!(serde_json::to_value(&n).unwrap(), json!("c0ffee"));
    }

    #[test]
    fn canonical_json_sorts_keys_at_every_depth() {
        let v = json!({"b": [ {"z": 1, "a": "é"} ], "a": null});
        assert_eq!(canonical_json(&v), r#"{"a":null,"b":[{"a":"é","z":1}]}"#);
    }
}

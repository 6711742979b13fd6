//! Random ids: of tables and of private tables' invite codes, from the system's random
//! source, each character as likely as any other.

use crate::hall::Refusal;
use crate::protocol::ErrorCode;
use rand::TryRngCore;

/// `prefix` and `len` random lowercase letters and digits (without the look-alikes i, l,
/// o, 0 and 1), each as likely as any other.
pub(crate) fn random_id(prefix: &str, len: usize) -> Result<String, Refusal> {
    const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
    // Bytes past the last whole multiple of the alphabet's length are skipped, so that no
    // character is likelier than another.
    let fair = 256 - 256 % ALPHABET.len();
    let mut id = prefix.to_string();
    while id.len() < prefix.len() + len {
        let mut bytes = [0u8; 32];
        rand::rngs::OsRng
            .try_fill_bytes(&mut bytes)
            .map_err(|e| Refusal::new(ErrorCode::Internal, format!("no randomness: {e}")))?;
        for b in bytes.iter().filter(|&&b| (b as usize) < fair) {
            if id.len() < prefix.len() + len {
                id.push(ALPHABET[*b as usize % ALPHABET.len()] as char);
            }
        }
    }
    Ok(id)
}

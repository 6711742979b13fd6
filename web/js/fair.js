// The page's own check of a finished deal (docs/fairness.md): the seed the server reveals
// gives the commitment it published before the deal, and this seat's nonce is in the
// record. Needs the browser's SHA-256, which exists on https and on localhost only.

const enc = new TextEncoder();

/** JSON with keys sorted at every depth and no spaces, as the server writes it. */
function canonical(v) {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

function hexBytes(hex) {
  return Uint8Array.from(hex.match(/../g) || [], (b) => parseInt(b, 16));
}

/** F(x): the length as 8 little-endian bytes, then x. */
function field(bytes) {
  const out = new Uint8Array(8 + bytes.length);
  new DataView(out.buffer).setBigUint64(0, BigInt(bytes.length), true);
  out.set(bytes, 8);
  return out;
}

/** The commitment a record's revealed seed gives. */
export async function commitmentOf(record) {
  const parts = [
    enc.encode('qipai/commitment/v1'),
    enc.encode(record.game),
    enc.encode(record.id),
    enc.encode(String(record.seats)),
    enc.encode(canonical(record.config)),
    hexBytes(record.seed),
  ].map(field);
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', all));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Checks a finished record against the commitment shown before its deal and our nonce:
 * `{ committed, nonceIn }`, or null when this browser cannot hash (plain http off
 * localhost).
 */
export async function checkDeal(record, shownCommitment, nonce) {
  if (!globalThis.crypto?.subtle || !record?.seed) return null;
  const c = await commitmentOf(record);
  return {
    committed: c === record.commitment && (!shownCommitment || c === shownCommitment),
    nonceIn: !!nonce && (record.nonces || []).includes(nonce),
  };
}

// check.mjs: an independent check of a WARC file written by `fetch --warc`,
// read with webrecorder's warcio (not with the project's Go reader).
//
//   node check.mjs FILE.warc.gz
//
// Prints one JSON summary on stdout and exits 1 when a check fails:
//  - the file parses to the end, a warcinfo record first;
//  - every request has a response with the same WARC-Target-URI, each
//    naming the other in WARC-Concurrent-To;
//  - WARC-Block-Digest of every record and WARC-Payload-Digest of every
//    response are recomputed (SHA-1, base32) and must match.
import { createReadStream } from "node:fs";
import { createHash } from "node:crypto";
import { WARCParser } from "warcio";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

// base32 is RFC 4648 base32 with padding, as WARC digests are written.
function base32(buf) {
  let out = "", bits = 0, value = 0;
  for (const byte of buf) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  while (out.length % 8 !== 0) out += "=";
  return out;
}

function sha1(bytes) {
  return "sha1:" + base32(createHash("sha1").update(bytes).digest());
}

async function* records(path, parseHttp) {
  for await (const r of WARCParser.iterRecords(createReadStream(path), { parseHttp })) {
    // raw: the block as stored (parseHttp false), or the HTTP payload as
    // sent, still content-encoded (parseHttp true).
    const bytes = await r.readFully(false);
    yield { r, bytes };
  }
}

async function main() {
  const path = process.argv[2];
  if (!path) {
    console.error("usage: node check.mjs FILE.warc.gz");
    process.exit(2);
  }
  const errors = [];
  const summary = { records: 0, types: {}, targets: [], pairs: 0, blockDigests: 0, payloadDigests: 0, truncated: 0, statuses: {} };
  const byID = new Map();

  // Pass 1: the blocks as stored, their digests and the pairing.
  for await (const { r, bytes } of records(path, false)) {
    const type = r.warcType;
    const id = r.warcHeader("WARC-Record-ID");
    summary.records++;
    summary.types[type] = (summary.types[type] || 0) + 1;
    if (summary.records === 1 && type !== "warcinfo") errors.push(`first record is ${type}, not warcinfo`);
    if (bytes.length !== r.warcContentLength) errors.push(`${id}: block of ${bytes.length} bytes, Content-Length ${r.warcContentLength}`);
    const want = r.warcBlockDigest;
    if (want) {
      summary.blockDigests++;
      const got = sha1(bytes);
      if (got !== want) errors.push(`${id} (${type} ${r.warcTargetURI}): WARC-Block-Digest ${want}, recomputed ${got}`);
    } else if (type === "request" || type === "response") {
      errors.push(`${id}: no WARC-Block-Digest`);
    }
    if (r.warcHeader("WARC-Truncated")) summary.truncated++;
    byID.set(id, { type, uri: r.warcTargetURI, to: r.warcConcurrentTo || [] });
  }
  for (const [id, rec] of byID) {
    if (rec.type !== "request") continue;
    const resp = rec.to.map((t) => [t, byID.get(t)]).find(([, x]) => x && x.type === "response");
    if (!resp) {
      errors.push(`request ${id} (${rec.uri}) has no concurrent response`);
      continue;
    }
    const [respID, r] = resp;
    if (r.uri !== rec.uri) errors.push(`request ${id} is for ${rec.uri}, its response ${respID} for ${r.uri}`);
    if (!r.to.includes(id)) errors.push(`response ${respID} does not name its request ${id}`);
    summary.pairs++;
    summary.targets.push(rec.uri);
  }
  const responses = [...byID.values()].filter((x) => x.type === "response").length;
  if (responses !== summary.pairs) errors.push(`${responses} responses, ${summary.pairs} request/response pairs`);

  // Pass 2: warcio splits the HTTP head off; the payload digest is over
  // what follows it, as sent (still content-encoded).
  for await (const { r, bytes } of records(path, true)) {
    if (r.warcType !== "response") continue;
    const status = r.httpHeaders ? String(r.httpHeaders.statusCode) : "none";
    summary.statuses[status] = (summary.statuses[status] || 0) + 1;
    const want = r.warcPayloadDigest;
    if (!want) {
      errors.push(`${r.warcHeader("WARC-Record-ID")}: response without WARC-Payload-Digest`);
      continue;
    }
    summary.payloadDigests++;
    const got = sha1(bytes);
    if (got !== want) errors.push(`${r.warcHeader("WARC-Record-ID")} (${r.warcTargetURI}): WARC-Payload-Digest ${want}, recomputed ${got}`);
  }
  summary.targets.sort();
  summary.errors = errors;
  process.stdout.write(JSON.stringify(summary) + "\n");
  process.exit(errors.length ? 1 : 0);
}

main().catch((e) => {
  process.stdout.write(JSON.stringify({ errors: [String(e && e.stack || e)] }) + "\n");
  process.exit(1);
});

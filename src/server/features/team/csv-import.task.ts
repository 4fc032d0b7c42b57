import { readMembersCsv, type ImportRows } from './csv-import';

/**
 * The members CSV read in the sandbox (issue 32): the file is a client's text, so it is decoded
 * and parsed in a child process the server can kill at the deadline (src/server/sandbox-worker.ts),
 * never on the thread that answers requests. The parser is one linear pass; the refusals it
 * throws (400 with the spec's messages) cross back as they are.
 */
export function readMembersCsvTask(arg: { bytes: Uint8Array }): ImportRows {
  return readMembersCsv(Buffer.from(arg.bytes.buffer, arg.bytes.byteOffset, arg.bytes.byteLength).toString('utf8'));
}

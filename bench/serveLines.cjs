'use strict';
// The stdin side of the bench's raw servers, as the reference echo server reads it
// (../shared/reference/raw-echo-server.cjs): newline-delimited, no validation. Each whole line goes to
// `handle`; the process ends with its input.
module.exports = function serveLines(handle) {
  let pending = []; // chunks without newline yet
  process.stdin.on('data', (chunk) => {
    let start = 0;
    let idx;
    while ((idx = chunk.indexOf(10, start)) !== -1) {
      let lineBuf;
      if (pending.length) { pending.push(chunk.subarray(start, idx)); lineBuf = Buffer.concat(pending); pending = []; }
      else lineBuf = chunk.subarray(start, idx);
      handle(lineBuf.toString('utf8'));
      start = idx + 1;
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  });
  process.stdin.on('end', () => process.exit(0));
};

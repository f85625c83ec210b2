// Writes a brotli (.br, best quality) and a gzip (.gz, level 9) copy beside each file given,
// for the server to send to browsers that accept them (scripts/build-site.sh).
// Usage: node scripts/precompress.mjs FILE...
import { readFileSync, writeFileSync } from "node:fs";
import { brotliCompressSync, gzipSync, constants } from "node:zlib";

for (const file of process.argv.slice(2)) {
  const data = readFileSync(file);
  writeFileSync(
    `${file}.br`,
    brotliCompressSync(data, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    }),
  );
  writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
}

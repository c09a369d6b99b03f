// The web app's build: React, bundled into web/dist with hashed assets. `npm install` runs it (package.json
// postinstall); the service serves the output at / (src/http/web.ts). The API client is typed from the service's
// OpenAPI document (web/src/api-schema.d.ts, kept in step by test/web/api-client.test.ts).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { NAV } from './src/nav';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** The app shell's navigation (index.html) written from the app's own list, so the two never differ. */
function shellNav(): Plugin {
  return {
    name: 'shell-nav',
    transformIndexHtml(html) {
      const links = NAV.map(([to, label]) => `<a href="${escapeHtml(to)}">${escapeHtml(label)}</a>`).join('');
      return html.replace(/<!--app-nav:[^>]*-->/, links);
    },
  };
}

/**
 * Brotli and gzip copies of the built scripts and styles (`x.js.br`, `x.js.gz`), which the service sends to a browser
 * that accepts them (src/http/web.ts, @fastify/static's preCompressed): the initial script is a third of its size
 * on the wire, which on a slow mobile network is seconds before the app starts (docs/web.md).
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    writeBundle() {
      const assets = path.join(outDir, 'assets');
      for (const name of readdirSync(assets)) {
        if (!/\.(js|css|svg)$/.test(name)) continue;
        const file = path.join(assets, name);
        const body = readFileSync(file);
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(body, {
            params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
          }),
        );
        writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), shellNav(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The pages' shared code in one entry; the chart library and the heavier pages load when first opened.
    chunkSizeWarningLimit: 900,
    reportCompressedSize: false,
  },
  server: { proxy: { '/api': 'http://localhost:3000' } },
});

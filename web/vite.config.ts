// The web app's build: React, bundled into web/dist with hashed assets. `npm install` runs it (package.json
// postinstall); the service serves the output at / (src/http/web.ts). The API client is typed from the service's
// OpenAPI document (web/src/api-schema.d.ts, kept in step by test/web/api-client.test.ts).
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The pages' shared code in one entry; the chart library and the heavier pages load when first opened.
    chunkSizeWarningLimit: 900,
    reportCompressedSize: false,
  },
  server: { proxy: { '/api': 'http://localhost:3000' } },
});

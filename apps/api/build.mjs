// Compiles the API for `npm run start:prod`: one ESM bundle per entry (the server, the migrator) in dist/, with the
// workspace packages (@portal/contract, @portal/lending: TypeScript sources) compiled in and every npm dependency left
// to node_modules, so plain `node` runs it without tsx. Source maps stay beside the bundle for stack traces.
import { build } from 'esbuild';
import { readFile, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';

const manifest = JSON.parse(await readFile(new URL('./package.json', import.meta.url), 'utf8'));
const external = Object.keys(manifest.dependencies).filter((name) => !name.startsWith('@portal/'));

await rm(new URL('./dist', import.meta.url), { recursive: true, force: true });
await build({
  // The letter template's worker thread (letter-template-worker.ts) is a file of its own, found beside the chunks.
  entryPoints: { main: 'src/main.ts', migrate: 'src/migrate-cli.ts', 'template-worker': 'src/modules/letters/template-worker.mjs' },
  absWorkingDir: new URL('.', import.meta.url).pathname,
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22.12',
  sourcemap: true,
  external,
  logLevel: 'warning',
});

// The letters' fonts (src/modules/letters/letter-fonts.ts) are TrueType files of a production dependency, read at run
// time from node_modules beside the bundle: the build fails here if the bundle could not find them.
const fromBundle = createRequire(new URL('./dist/main.js', import.meta.url));
for (const font of [
  '@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf',
  '@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf',
]) {
  if (!manifest.dependencies[font.split('/').slice(0, 2).join('/')]) throw new Error(`${font}: not a production dependency of the API`);
  await stat(fromBundle.resolve(font));
}

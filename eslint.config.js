// One lint configuration for every workspace: typescript-eslint's recommended rules plus React hooks for the web.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { readdirSync } from 'node:fs';

const DEMO_MESSAGE = 'The template demo (apps/web/src/demo) is isolated: only the router and the shell load it, through demo/registry.';
const DEMO_BOUNDARY = { regex: /(^|\/)demo(\/|$)/, message: DEMO_MESSAGE };
const WEB_FEATURES = readdirSync(new URL('apps/web/src/features/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const API_MODULES = readdirSync(new URL('apps/api/src/modules/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
/** What each API module may import besides itself (docs/architecture.md, "modules/<area>"); any other area may import these. */
const MODULE_ALLOWED = { shared: [], audit: ['shared'], portfolio: ['shared', 'audit'] };
const AREA_ALLOWED = ['shared', 'audit', 'portfolio'];
const ZONE_MESSAGES = {
  featureToApp: 'Import boundary: a feature never imports app/ (app/ composes the features); take what you need from lib/ or components/.',
  featureToFeature:
    'Import boundary: features never import each other; move what two features share to components/ (visual) or lib/ (non-visual).',
  sharedToApp: 'Import boundary: components/ and lib/ are shared by every feature and never import app/ or a feature.',
};

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist*/**',
      'data/**',
      '**/.data*/**',
      '**/test-results/**',
      '**/playwright-report/**',
      'apps/api/drizzle/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-console': 'off',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  // The template demo (apps/web/src/demo) is isolated: nothing outside it imports it, statically or with import(), except
  // its one registration point, demo/registry, which only the router and the shell's layout may load.
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/demo/**'],
    rules: importRules([DEMO_BOUNDARY]),
  },
  // The web's import zones (docs/architecture.md): app/ composes the features; a feature imports components/ and lib/,
  // never app/ nor another feature; components/ and lib/ import neither. Each block keeps the demo boundary too,
  // since flat config replaces a rule's options per file.
  ...WEB_FEATURES.map((feature) => ({
    files: [`apps/web/src/features/${feature}/**/*.{ts,tsx}`],
    rules: importRules([
      DEMO_BOUNDARY,
      { regex: /^(\.\.\/)+app(\/|$)/, message: ZONE_MESSAGES.featureToApp },
      {
        regex: new RegExp(`^(\\.\\./)+(features/)?(${WEB_FEATURES.filter((other) => other !== feature).join('|')})(/|$)`),
        message: ZONE_MESSAGES.featureToFeature,
      },
    ]),
  })),
  {
    files: ['apps/web/src/components/**/*.{ts,tsx}', 'apps/web/src/lib/**/*.{ts,tsx}'],
    rules: importRules([DEMO_BOUNDARY, { regex: /^(\.\.\/)+(app|features)(\/|$)/, message: ZONE_MESSAGES.sharedToApp }]),
  },
  {
    files: ['apps/web/src/app/router.tsx', 'apps/web/src/app/shell/app-layout.tsx'],
    rules: demoImportRules(/(^|\/)demo\/(?!registry$)|(^|\/)demo$/),
  },
  {
    // Other workspaces (api, e2e, packages) reach the web app's files only through a path naming it.
    files: ['**/*.{ts,tsx,js,mjs,cjs}'],
    ignores: ['apps/web/**'],
    rules: demoImportRules(/(^|\/)web\/src\/demo(\/|$)/),
  },
  // The API's layers (docs/architecture.md): app.ts composes; modules/ (routes → service → queries) sit on http/ and
  // db/; seed/ sits above the modules; db/ is the ground floor. Tests may reach across (they build whole apps).
  // Between the modules (import zones): an area imports its own folder, shared/, audit/ and portfolio/ (the one door
  // for changing credits); portfolio/ imports shared/ and audit/; audit/ and shared/ import only shared/.
  // A folder not yet listed (a new area) gets an area's zone; each listed folder its own.
  { files: ['apps/api/src/modules/**/*.ts'], ignores: ['**/*.test.ts'], rules: moduleRules(null) },
  ...API_MODULES.map((module) => ({
    files: [`apps/api/src/modules/${module}/**/*.ts`],
    ignores: ['**/*.test.ts'],
    rules: moduleRules(module),
  })),
  {
    files: ['apps/api/src/db/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: apiZoneRules([
      {
        regex: '^(\\.\\./)+(modules|seed|idp|http)(/|$)',
        message: 'db/ is the ground floor: it never imports modules/, seed/, idp/ or http/.',
      },
      { regex: '^(\\.\\./)+app$', message: 'db/ never imports app.ts.' },
    ]),
  },
  {
    // Data is reached through request.db: one transaction per request, limited to the user's company by row-level
    // security (apps/api/src/db/scope.ts). A second handle inside a handler would escape the request's transaction
    // (and, on PGlite's single connection, wait for it forever).
    files: ['apps/api/src/modules/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        // Flat config replaces a rule's options per file: keep the demo boundary of the block above here too.
        demoImportRules(/(^|\/)web\/src\/demo(\/|$)/)['no-restricted-syntax'][1],
        {
          selector: "MemberExpression[object.name='deps'][property.name='db']",
          message: 'Modules reach data through request.db (the request transaction, scoped by row-level security), never deps.db.',
        },
      ],
    },
  },
);

/** The import rules of an API module folder (null: a new area): the layers' and the zones between the modules. */
function moduleRules(module) {
  return apiZoneRules([
    {
      regex: '^(\\.\\./)+seed(/|$)',
      message: 'Modules never import seed/: the seeds sit above the modules and use them, not the reverse.',
    },
    { regex: '^(\\.\\./)+app$', message: 'Modules never import app.ts (it composes them): take AppDeps and Clock from deps.ts.' },
    ...moduleZone(module),
  ]);
}

/** The modules `module` may not import: every other folder of modules/ but those it is allowed. */
function moduleZone(module) {
  const allowed = MODULE_ALLOWED[module] ?? AREA_ALLOWED;
  const forbidden = API_MODULES.filter((other) => other !== module && !allowed.includes(other));
  if (forbidden.length === 0) return [];
  return [
    {
      regex: `^(\\.\\./)+(modules/)?(${forbidden.join('|')})(/|$)`,
      message:
        module in MODULE_ALLOWED
          ? `Import zone: modules/${module}/ imports only ${[module, ...allowed].map((name) => `${name}/`).join(', ')}; it sits below the areas.`
          : `Import zone: an area imports only its own folder, shared/, audit/ and portfolio/ (the door for changing credits); move what two areas share to shared/, or make it part of portfolio/.`,
    },
  ];
}

/** Import zones for an API layer; the demo boundary stays (flat config replaces a rule's options per file). */
function apiZoneRules(patterns) {
  return {
    'no-restricted-imports': [
      'error',
      { patterns: [...demoImportRules(/(^|\/)web\/src\/demo(\/|$)/)['no-restricted-imports'][1].patterns, ...patterns] },
    ],
  };
}

function demoImportRules(forbidden) {
  return importRules([{ regex: forbidden, message: DEMO_MESSAGE }]);
}

/** Refuses imports whose specifier matches one of `forbidden` ({ regex, message }), statically or with import(). */
function importRules(forbidden) {
  return {
    'no-restricted-imports': ['error', { patterns: forbidden.map(({ regex, message }) => ({ regex: regex.source, message })) }],
    'no-restricted-syntax': [
      'error',
      ...forbidden.map(({ regex, message }) => ({ selector: `ImportExpression[source.value=/${regex.source}/]`, message })),
    ],
  };
}

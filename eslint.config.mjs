// ESLint (flat config): typescript-eslint with type information, React's hooks rules, Next's
// rules; formatting is Prettier's alone (eslint-config-prettier turns off every stylistic rule
// that would fight it). `npm run lint` fails on any warning; .lint-evaluation.md says why this
// set and not Biome's.
import comments from "@eslint-community/eslint-plugin-eslint-comments/configs";
import js from "@eslint/js";
import nextPlugin from "@next/eslint-plugin-next";
import eslintConfigPrettier from "eslint-config-prettier/flat";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    // Generated or built code, and what tests and builds leave behind.
    ignores: [
      ".next/**",
      "next-env.d.ts",
      "node_modules/**",
      "data/**",
      "public/**",
      "lib/db/generated/**",
      "prisma/generated/**",
      "prisma/migrations/**",
      "packages/*/dist/**",
      "packages/client/src/generated/**",
      "e2e/.artifacts/**",
      "test-results/**",
      "playwright-report/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  comments.recommended,
  {
    languageOptions: {
      parserOptions: {
        // Each file is checked against the tsconfig.json that owns it (the root one, or
        // packages/client's), as the editor does.
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: {
      // An eslint-disable that no longer disables anything is itself a finding.
      reportUnusedDisableDirectives: "error",
    },
    rules: {
      // The four the issue names.
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/switch-exhaustiveness-check": [
        "error",
        { considerDefaultExhaustiveForUnions: true, requireDefaultForNonUnion: false },
      ],
      "@typescript-eslint/consistent-type-imports": [
        "error",
        { prefer: "type-imports", fixStyle: "inline-type-imports", disallowTypeAnnotations: false },
      ],
      // Every eslint-disable says why (`// eslint-disable-next-line rule -- reason`).
      "@eslint-community/eslint-comments/require-description": ["error", { ignore: ["eslint-enable"] }],
      // A file-wide /* eslint-disable rule -- reason */ at the top needs no eslint-enable.
      "@eslint-community/eslint-comments/disable-enable-pair": ["error", { allowWholeFile: true }],
      // Off: an async function without await is how this code keeps to a Promise-returning
      // interface (route handlers, MCP tools, the rate-limit store) and turns a synchronous throw
      // into a rejection. Promises that are dropped or misused are no-floating-promises' and
      // no-misused-promises' business.
      "@typescript-eslint/require-await": "off",
      // Off: every site it reports coerces a field of an untyped provider or JSON body (typed
      // `{}`/unknown after narrowing) with String(x ?? ""), on purpose; the rule can't tell those
      // from a real object being printed.
      "@typescript-eslint/no-base-to-string": "off",
      // A leading underscore is the house way to say "deliberately unused".
      "@typescript-eslint/no-unused-vars": [
        "error",
        {
          argsIgnorePattern: "^_",
          varsIgnorePattern: "^_",
          caughtErrorsIgnorePattern: "^_",
          destructuredArrayIgnorePattern: "^_",
          ignoreRestSiblings: true,
        },
      ],
    },
  },
  {
    // Tests, benches and the fuzzer read response bodies they don't type: their `any`s are
    // declared on purpose (each with its own disable), and a body of the wrong shape fails the
    // test's assertion anyway. Product code (app, components, lib, packages/client/src) keeps
    // every no-unsafe-* rule.
    files: ["e2e/**", "packages/client/test/**"],
    rules: {
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-return": "off",
    },
  },
  {
    // The rules of hooks and exhaustive deps. Not the React Compiler's diagnostics that the
    // plugin's recommended set adds since v6 (purity, set-state-in-effect, incompatible-library,
    // ...): this app doesn't build with the compiler, and those judge code by what the compiler
    // could memoize (.lint-evaluation.md lists what they reported).
    files: ["**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
    },
  },
  {
    files: ["app/**", "components/**"],
    ...nextPlugin.configs["core-web-vitals"],
  },
  {
    // Plain JavaScript (config files, build scripts, the CommonJS test preload) is outside
    // every tsconfig (allowJs is off): lint it without type information.
    files: ["**/*.{js,mjs,cjs}"],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: globals.node,
    },
  },
  {
    files: ["**/*.cjs"],
    languageOptions: {
      sourceType: "commonjs",
    },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  eslintConfigPrettier,
);

/* ESLint for the site's own scripts and their unit tests (`make lint`, and tests/test_eslint.py in
 * `make test`). It lives beside package.json so that `@eslint/js` resolves from this folder's
 * node_modules; basePath makes the file patterns relative to the repository root. Rules: the
 * recommended set (real mistakes: undefined names, unreachable code, duplicate keys...) and a few
 * that catch bugs rather than style. Vendored files are not ours to lint. */
import js from "@eslint/js";

const browser = {
  window: "readonly", document: "readonly", navigator: "readonly", history: "readonly",
  setTimeout: "readonly", clearTimeout: "readonly", URLSearchParams: "readonly", Option: "readonly",
};
const node = {
  require: "readonly", module: "writable", process: "readonly", __dirname: "readonly", console: "readonly",
};

export default [
  { basePath: "../.." },
  { ignores: ["docs/assets/vendor/**"] },
  {
    files: ["docs/assets/atlas.js", "docs/assets/atlas-env.js", "docs/assets/atlas-planner.js", "tests/js/**/*.js"],
    ...js.configs.recommended,
  },
  {
    files: ["docs/assets/atlas.js", "docs/assets/atlas-env.js", "docs/assets/atlas-planner.js"],
    languageOptions: { ecmaVersion: 2020, sourceType: "script", globals: { ...browser, module: "readonly" } },
  },
  {
    files: ["tests/js/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "commonjs", globals: node },
  },
  {
    files: ["docs/assets/atlas.js", "docs/assets/atlas-env.js", "docs/assets/atlas-planner.js", "tests/js/**/*.js"],
    rules: {
      eqeqeq: "error",
      "no-implicit-globals": "error",
      "no-use-before-define": ["error", { functions: false }],
      "no-unused-vars": ["error", { caughtErrors: "none" }],
      "no-var": "off",
      "array-callback-return": "error",
      "no-self-compare": "error",
      "no-unmodified-loop-condition": "error",
      "no-template-curly-in-string": "error",
      "default-param-last": "error",
      "no-new-wrappers": "error",
    },
  },
];

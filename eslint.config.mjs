// ESLint 9 flat config: typescript-eslint type-checked rules (issue #32). Prettier formats; eslint does not.
import tseslint from "typescript-eslint";

export default tseslint.config(
  // Generated code (src/gen, clients/typescript/src/gen) is not linted; the client package's own sources are.
  {
    ignores: [
      "src/gen/**",
      "clients/python/**",
      "clients/go/**",
      "clients/typescript/src/gen/**",
      "clients/typescript/dist/**",
      "clients/typescript/node_modules/**",
      "dist/**",
      "node_modules/**",
      ".scratch/**",
    ],
  },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      // projectService reads tsconfig.json, which includes src, test, bench and scripts.
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
  },
  {
    rules: {
      // Async methods that implement a Promise-returning contract (close(), a readiness check) without awaiting
      // anything are deliberate; no-floating-promises and no-misused-promises still guard how promises are used.
      "@typescript-eslint/require-await": "off",
      // A leading underscore names a parameter or binding a signature requires but this body does not read.
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }],
    },
  },
  {
    // Tests, benches and scripts parse JSON of real responses (RPC, Jupiter, the service): `any` there is the data's nature.
    files: ["test/**", "bench/**", "scripts/**"],
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-return": "off",
    },
  },
  { files: ["**/*.mjs", "**/*.js"], ...tseslint.configs.disableTypeChecked },
);

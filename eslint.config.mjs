// ESLint 9 flat config: typescript-eslint type-checked rules (issue #32). Prettier formats; eslint does not.
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["src/gen/**", "clients/**", "dist/**", "node_modules/**", ".scratch/**"] },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      // projectService reads tsconfig.json, which includes src, test, bench and scripts.
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
  },
  {
    // Tests and benches parse JSON of real responses (RPC, Jupiter, the service): `any` there is the data's nature.
    files: ["test/**", "bench/**"],
    rules: {
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-return": "off",
    },
  },
  { files: ["**/*.mjs", "**/*.js"], ...tseslint.configs.disableTypeChecked },
);

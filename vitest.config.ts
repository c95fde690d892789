import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    reporters: ["default", "./test/support/summary-reporter.ts"],
    setupFiles: ["./test/support/setup-temp-dirs.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Tests never read the developer's real keys or base URLs.
    env: {
      OPENAI_BASE_URL: "",
      DEEPSEEK_API_KEY: "",
      OPENAI_API_KEY: "",
      ANTHROPIC_API_KEY: "",
      HX_PROVIDER: "",
      HX_MODEL: "",
      HX_BASE_URL: "",
    },
  },
});

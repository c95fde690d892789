// Vitest setup file: the temp dirs a test file made are removed after its last test.
import { afterAll } from "vitest";
import { removeTempDirs } from "./temp-dir.js";

afterAll(removeTempDirs);

// The shared attack cases (../shared/attacks/permission-cases.json): command lines that once
// slipped past the permission check (see attack-support.ts for how they are run).
import path from "node:path";
import { SHARED_DIR } from "../support/run-hx.js";
import { attackCaseSuites } from "./attack-support.js";

attackCaseSuites(path.join(SHARED_DIR, "attacks", "permission-cases.json"), "shared attack cases");

#!/usr/bin/env node
// `node bin/hx.js` for scripts written before the launcher became CommonJS (bin/hx.cjs, the
// package's `bin`): it runs the same launcher.
import "./hx.cjs";

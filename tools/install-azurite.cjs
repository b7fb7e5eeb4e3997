// Installs Azurite from the checkout's package-lock.json for the integration tests, unless
// node_modules already holds exactly the locked packages (npm's own hidden lockfile
// node_modules/.package-lock.json records what was installed).
"use strict";
const fs = require("fs");
const path = require("path");
const { spawnSync } = require("child_process");

const root = path.resolve(__dirname, "..");
const lockFile = path.join(root, "package-lock.json");
const installed = path.join(root, "node_modules", ".package-lock.json");

function upToDate() {
  if (!fs.existsSync(installed)) return false;
  const want = JSON.parse(fs.readFileSync(lockFile, "utf8")).packages || {};
  const have = JSON.parse(fs.readFileSync(installed, "utf8")).packages || {};
  for (const [p, meta] of Object.entries(want)) {
    if (p === "") continue;
    const got = have[p];
    if (!got || got.version !== meta.version || got.integrity !== meta.integrity) return false;
    if (!fs.existsSync(path.join(root, p, "package.json"))) return false;
  }
  return fs.existsSync(path.join(root, "node_modules", ".bin", "azurite"));
}

if (upToDate()) {
  console.log("[stowage] Azurite in node_modules matches package-lock.json; npm ci skipped");
  process.exit(0);
}
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
console.log("[stowage] installing Azurite: npm ci --no-audit --no-fund");
const r = spawnSync(npm, ["ci", "--no-audit", "--no-fund"], { cwd: root, stdio: "inherit" });
if (r.error || r.status !== 0) {
  console.error(
    "[stowage] could not install Azurite with npm (" +
      (r.error ? r.error.message : "exit " + r.status) +
      "). The build needs Node.js 18+ with npm on the PATH (the console's page takes Alpine.js" +
      " from it, the tests Azurite)" +
      " (Debian: apt-get install nodejs npm) and access to the npm registry.");
  process.exit(1);
}

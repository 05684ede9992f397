'use strict';
// Whether an adapter's npm packages are installed, for the conformance matrix
// (tools/conformance_matrix.py) and the CTest tests:
//   node detect.js            exit 0 when every package loads, 1 otherwise
//   node detect.js --version  print "package version" per package, exit as above
// Each adapter's detect.js calls detect() with its folder and packages.

const fs = require('fs');
const path = require('path');

// The package.json of an installed package, found from the folder the
// adapter's node_modules/ is in.
function installedPackage(folder, name) {
  const file = path.join(folder, 'node_modules', ...name.split('/'), 'package.json');
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

function detect(folder, packages) {
  const printVersion = process.argv.includes('--version');
  const lines = [];
  for (const name of packages) {
    try {
      require(require.resolve(name, { paths: [folder] }));
      lines.push(`${name} ${installedPackage(folder, name).version}`);
    } catch (e) {
      process.stderr.write(`${name} is not installed (run "npm ci --ignore-scripts" in ` +
                           `${folder}): ${e.message.split('\n')[0]}\n`);
      process.exit(1);
    }
  }
  if (printVersion) process.stdout.write(lines.join(', ') + '\n');
  process.exit(0);
}

module.exports = { detect, installedPackage };

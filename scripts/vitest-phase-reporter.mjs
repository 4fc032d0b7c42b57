// A Vitest reporter of npm test (scripts/test.mjs, decision 38-03): when the first file of a sequence
// group after the unit/API and solo files starts (the browser files and the web component tests,
// groupOrder 2 and later), it creates the file named by NODE_MATRIX_SIGNAL. npm test starts the
// runs on the other Node.js lines then, at the lowest CPU priority: the browser phase leaves part of
// a core idle while pages load, and the solo files' CPU bars are measured before anything else starts.
import fs from 'node:fs';

export default class PhaseReporter {
  signalled = false;

  onTestModuleStart(testModule) {
    const file = process.env.NODE_MATRIX_SIGNAL;
    if (this.signalled || !file) return;
    if ((testModule.project.config.sequence?.groupOrder ?? 0) < 2) return;
    this.signalled = true;
    fs.writeFileSync(file, testModule.project.name);
  }
}

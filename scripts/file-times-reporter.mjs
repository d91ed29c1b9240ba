// A Vitest reporter that writes each test file's time to the JSON file FLOWBOX_FILE_TIMES names:
// import, set-up and every test and hook, which Vitest's JSON reporter leaves out (it spans the tests
// only). scripts/test.mjs reads it to name the slowest files of a run.
import { writeFileSync } from 'node:fs';

export default class FileTimesReporter {
  onTestRunEnd(testModules) {
    const path = process.env.FLOWBOX_FILE_TIMES;
    if (!path) return;
    const files = testModules.map((module) => {
      const d = module.diagnostic();
      const ms =
        d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration;
      return { file: module.moduleId, seconds: Math.round(ms) / 1000 };
    });
    writeFileSync(path, JSON.stringify(files));
  }
}

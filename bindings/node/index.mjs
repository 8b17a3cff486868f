// hookc for Node, as an ES module: the same classes as `require('hookc')`.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const hookc = require('./index.js');

export const { Policy, HookRegistry, HookcError } = hookc;
export default hookc;

// The shared driver suite (test/storage/_driver-suite.ts) on weir's Redis driver: every instance opens the
// same Redis prefix, as the hosts of a cluster do; the suite clears that prefix when it ends.
import { openStorage } from '../../src/storage/index.js';
import { driverSuite } from '../storage/_driver-suite.js';
import { tmpDir } from '../_utils.js';
import { REDIS_URL, uniqueName } from './_scale.js';

const prefix = uniqueName('suite');
const config = { storage: { cloud: { driver: 'redis', url: REDIS_URL, base: prefix } } };

driverSuite('redis', () => openStorage({ config, home: tmpDir() }), { keyUnderKey: 'kept' });

// The shared driver suite on the drivers that need no server: unstorage's memory driver (a weir without a
// home) and weir's atomic fs driver. Redis: test/scale/storage-drivers.test.ts.
import { createStorage } from 'unstorage';
import { openStorage } from '../../src/storage/index.js';
import { tmpDir } from '../_utils.js';
import { driverSuite } from './_driver-suite.js';

// One memory store behind every instance, as one directory is behind every fs instance.
const memory = { local: createStorage(), cloud: createStorage() };
driverSuite('memory', () => openStorage(memory), { keyUnderKey: 'kept' });

const home = tmpDir('weir-fs-driver-');
driverSuite('fs', () => openStorage({ home }), { keyUnderKey: 'refused' });


// Same regex engine settings as the bin launchers, so in-process tests behave like the CLI.
import v8 from 'node:v8';

v8.setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
process.env['NO_COLOR'] = '1';

export * from './navigation';
export * from './session';
export * from './problem';

import { start } from './app';

start();

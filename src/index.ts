import { createApp } from './api/app';

export default createApp();

import { createApp } from './api';

export default createApp();

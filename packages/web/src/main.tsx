import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.js';
import { AppState } from './state/app-state.js';
import './styles/app.css';

const root = document.getElementById('root');
if (root === null) throw new Error('index.html has no #root');
const app = new AppState();
void app.init();
createRoot(root).render(
  <StrictMode>
    <App app={app} />
  </StrictMode>,
);

/** The ten tools, in the order tools/list shows them. */
import type { Tool } from '../tool';
import { artifactGet } from './artifact_get';
import { artifactPut } from './artifact_put';
import { decide } from './decide';
import { forget } from './forget';
import { note } from './note';
import { observe } from './observe';
import { plan } from './plan';
import { recall } from './recall';
import { remember } from './remember';
import { space } from './space';

export const TOOLS: readonly Tool[] = [
  recall,
  remember,
  observe,
  plan,
  decide,
  note,
  artifactPut,
  artifactGet,
  space,
  forget,
];

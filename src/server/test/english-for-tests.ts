// A setup file of every test project (vitest.config.ts). Tests render components and call shared code without a
// page's catalogue, where an English message with a plural or a select would show as its bare arguments: this
// translator compiles each English message the first time it is used, as the server compiles the catalogues, so a
// test reads what the app shows.
import { compileMessage } from '../i18n/compile.js';
import { messageKey, type Values } from '../../shared/i18n/messages.js';
import { setTranslator, Translator } from '../../shared/i18n/translator.js';

class EnglishForTests extends Translator {
  override parts(message: string, values?: Values, context?: string): unknown[] {
    if (!this.has(message, context) && /[{<]/.test(message))
      this.add({ [messageKey(message, context)]: compileMessage(message) });
    return super.parts(message, values, context);
  }
}

setTranslator(new EnglishForTests({ locale: 'en', messages: {}, currency: 'USD' }));

package dev.ratelimit.interceptor.config.document;

import dev.ratelimit.interceptor.config.RuleCatalog;
import dev.ratelimit.interceptor.config.SysConfigEditor;

/**
 * This app's rules as a document, for code: {@link #export()} writes what operators set of its rules,
 * {@link #preview} reads a document and says exactly what it would change, and
 * {@link RulesImport.Preview#apply()} writes that. The console does the same for every module.
 *
 * <pre>{@code
 * RulesImport.Preview preview = documents.preview(Files.readString(path), RulesImport.Mode.REPLACE);
 * if (preview.refused().isEmpty()) {
 *     preview.apply();
 * }
 * }</pre>
 */
public class RuleDocuments {

    private final RuleCatalog catalog;
    private final SysConfigEditor editor;

    public RuleDocuments(RuleCatalog catalog, SysConfigEditor editor) {
        this.catalog = catalog;
        this.editor = editor;
    }

    /** What operators set of this app's rules, as a {@link RulesDocument}. */
    public String export() {
        return export(true);
    }

    /** The same; without {@code clients}, the whitelist and the exceptions are hidden ({@link RulesDocument}). */
    public String export(boolean clients) {
        return RulesDocument.write(catalog.readNow(), clients);
    }

    /** What {@code document} would change; a document naming another module is refused. */
    public RulesImport.Preview preview(String document, RulesImport.Mode mode) {
        return RulesImport.preview(catalog.readNow(), editor, document, mode);
    }
}

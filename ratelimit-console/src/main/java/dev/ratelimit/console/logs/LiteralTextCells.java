package dev.ratelimit.console.logs;

import cn.idev.excel.write.handler.CellWriteHandler;
import cn.idev.excel.write.handler.context.CellWriteHandlerContext;
import org.apache.poi.ss.usermodel.Cell;
import org.apache.poi.ss.usermodel.CellStyle;
import org.apache.poi.ss.usermodel.CellType;

/**
 * Logged values come from clients: a URI or user code such as {@code =HYPERLINK(...)} or
 * {@code @SUM(...)} must stay text when an operator opens or edits the export. Every value is written
 * as a string cell; one that starts with {@code = + - @}, a tab or a carriage return is also marked
 * quote-prefixed, which spreadsheet programs keep as literal text even after editing the cell.
 */
final class LiteralTextCells implements CellWriteHandler {

    private CellStyle literal;

    @Override
    public void afterCellDispose(CellWriteHandlerContext context) {
        Cell cell = context.getCell();
        if (Boolean.TRUE.equals(context.getHead()) || cell.getCellType() != CellType.STRING
                || !isFormulaLike(cell.getStringCellValue())) {
            return;
        }
        if (literal == null) {
            literal = cell.getSheet().getWorkbook().createCellStyle();
            literal.setQuotePrefixed(true);
        }
        cell.setCellStyle(literal);
    }

    static boolean isFormulaLike(String text) {
        if (text.isEmpty()) {
            return false;
        }
        char first = text.charAt(0);
        return first == '=' || first == '+' || first == '-' || first == '@' || first == '\t' || first == '\r';
    }
}

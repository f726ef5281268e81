package dev.ratelimit.console.logs;

import cn.idev.excel.write.handler.CellWriteHandler;
import cn.idev.excel.write.handler.SheetWriteHandler;
import cn.idev.excel.write.handler.WorkbookWriteHandler;
import cn.idev.excel.write.handler.context.CellWriteHandlerContext;
import cn.idev.excel.write.handler.context.SheetWriteHandlerContext;
import cn.idev.excel.write.handler.context.WorkbookWriteHandlerContext;
import javax.xml.namespace.QName;
import org.apache.poi.ss.usermodel.Cell;
import org.apache.poi.ss.usermodel.CellStyle;
import org.apache.poi.ss.usermodel.FillPatternType;
import org.apache.poi.ss.usermodel.Font;
import org.apache.poi.ss.usermodel.IndexedColors;
import org.apache.poi.ss.usermodel.Sheet;
import org.apache.poi.ss.usermodel.Workbook;
import org.apache.poi.ss.util.CellRangeAddress;
import org.apache.poi.xssf.streaming.SXSSFWorkbook;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;
import org.apache.xmlbeans.XmlCursor;
import org.openxmlformats.schemas.spreadsheetml.x2006.main.CTStylesheet;

/**
 * How the export looks in a spreadsheet program: a bold header row in the workbook's own font (not a
 * fixed CJK font at 14 pt), frozen, with an autofilter over every column; the time column as real
 * date-time cells; and the default cell style ("Normal") that readers such as openpyxl expect and POI
 * does not write by itself.
 */
final class SheetLayout implements WorkbookWriteHandler, SheetWriteHandler, CellWriteHandler {

    private static final String MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";

    private CellStyle header;
    private CellStyle time;

    @Override
    public void afterWorkbookCreate(WorkbookWriteHandlerContext context) {
        Workbook workbook = context.getWriteWorkbookHolder().getWorkbook();
        XSSFWorkbook xssf = workbook instanceof SXSSFWorkbook streaming ? streaming.getXSSFWorkbook()
                : workbook instanceof XSSFWorkbook plain ? plain : null;
        if (xssf != null) {
            addNormalStyle(xssf.getStylesSource().getCTStylesheet());
        }
        Font bold = workbook.createFont();
        bold.setBold(true);
        header = workbook.createCellStyle();
        header.setFont(bold);
        header.setFillForegroundColor(IndexedColors.GREY_25_PERCENT.getIndex());
        header.setFillPattern(FillPatternType.SOLID_FOREGROUND);
        time = workbook.createCellStyle();
        time.setDataFormat(workbook.createDataFormat().getFormat("yyyy-mm-dd hh:mm:ss.000"));
    }

    /**
     * {@code <cellStyles><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>}, written through
     * a cursor, since the light schema classes that POI ships have no type for it. The workbook is new:
     * its style sheet has no children yet, and those POI adds when it saves go where the schema wants
     * them, before this one.
     */
    private static void addNormalStyle(CTStylesheet styles) {
        try (XmlCursor cursor = styles.newCursor()) {
            if (cursor.toChild(new QName(MAIN, "cellStyles"))) {
                return;
            }
            cursor.toEndToken();
            cursor.beginElement(new QName(MAIN, "cellStyles"));
            cursor.insertAttributeWithValue("count", "1");
            cursor.beginElement(new QName(MAIN, "cellStyle"));
            cursor.insertAttributeWithValue("name", "Normal");
            cursor.insertAttributeWithValue("xfId", "0");
            cursor.insertAttributeWithValue("builtinId", "0");
        }
    }

    @Override
    public void afterSheetCreate(SheetWriteHandlerContext context) {
        Sheet sheet = context.getWriteSheetHolder().getSheet();
        sheet.createFreezePane(0, 1);
        sheet.setAutoFilter(new CellRangeAddress(0, 0, 0, LogColumn.values().length - 1));
    }

    @Override
    public void afterCellDispose(CellWriteHandlerContext context) {
        Cell cell = context.getCell();
        if (Boolean.TRUE.equals(context.getHead())) {
            cell.setCellStyle(header);
        } else if (cell.getColumnIndex() == LogColumn.CREATED_AT.ordinal()) {
            cell.setCellStyle(time);
        }
    }
}

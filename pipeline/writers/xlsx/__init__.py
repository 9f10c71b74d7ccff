"""Spreadsheets: rating_list.xlsx, report.xlsx and player workbooks."""

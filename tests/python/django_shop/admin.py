from django.contrib import admin

from .models import Category, Product


@admin.register(Product)
class ProductAdmin(admin.ModelAdmin):
    list_display = ["name", "category", "price", "in_stock"]
    list_filter = ["in_stock", "category"]
    list_select_related = ["category"]
    search_fields = ["name"]


admin.site.register(Category)

"""The admin: every widget an explorer meets in a real back office (filters, search, pages, date
drill-down, select/autocomplete/raw-id/filter-horizontal fields, inline rows, the actions menu)."""

from django.contrib import admin, messages
from django.db.models import Count

from .models import Category, Customer, Order, OrderLine, Product, Tag


@admin.register(Category)
class CategoryAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "parent", "product_count"]
    list_filter = ["parent"]
    search_fields = ["name", "description"]
    prepopulated_fields = {"slug": ["name"]}
    raw_id_fields = ["parent"]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(_products=Count("products"))

    @admin.display(description="products", ordering="_products")
    def product_count(self, obj):
        return obj._products


@admin.register(Tag)
class TagAdmin(admin.ModelAdmin):
    list_display = ["name"]
    search_fields = ["name"]  # needed by the autocomplete fields that point here


@admin.register(Customer)
class CustomerAdmin(admin.ModelAdmin):
    list_display = ["last_name", "first_name", "email", "city", "country", "tier", "is_active", "joined_on"]
    list_display_links = ["last_name", "first_name"]
    list_filter = ["tier", "country", "is_active", "joined_on", "tags"]
    search_fields = ["first_name", "last_name", "email", "city"]
    date_hierarchy = "joined_on"
    list_per_page = 10
    filter_horizontal = ["tags"]
    fieldsets = [
        (None, {"fields": [("first_name", "last_name"), "email", "phone"]}),
        ("Address", {"fields": ["city", "country"]}),
        ("Account", {"fields": ["tier", "joined_on", "is_active", "tags"]}),
        ("Notes", {"fields": ["notes"], "classes": ["collapse"]}),
    ]


@admin.register(Product)
class ProductAdmin(admin.ModelAdmin):
    list_display = ["name", "sku", "category", "price", "stock", "status", "released_on"]
    list_filter = ["status", "category", "tags", "released_on"]
    search_fields = ["name", "sku", "description"]
    date_hierarchy = "released_on"
    list_per_page = 15
    list_select_related = ["category"]
    filter_horizontal = ["tags"]
    actions = ["discontinue"]

    @admin.action(description="Mark selected products as discontinued")
    def discontinue(self, request, queryset):
        count = queryset.update(status=Product.Status.DISCONTINUED)
        self.message_user(request, f"{count} product(s) marked as discontinued.", messages.SUCCESS)


class OrderLineInline(admin.TabularInline):
    model = OrderLine
    extra = 1
    autocomplete_fields = ["product"]


@admin.register(Order)
class OrderAdmin(admin.ModelAdmin):
    list_display = ["number", "customer", "status", "shipping", "placed_at", "ship_by", "order_total"]
    list_filter = ["status", "shipping", "placed_at", "tags"]
    search_fields = ["number", "customer__first_name", "customer__last_name", "customer__email"]
    date_hierarchy = "placed_at"
    list_per_page = 20
    list_select_related = ["customer"]
    autocomplete_fields = ["customer", "tags"]
    inlines = [OrderLineInline]
    actions = ["mark_shipped"]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("lines")

    @admin.display(description="total")
    def order_total(self, obj):
        return obj.total()

    @admin.action(description="Mark selected orders as shipped")
    def mark_shipped(self, request, queryset):
        count = queryset.filter(status__in=[Order.Status.PENDING, Order.Status.PAID]).update(status=Order.Status.SHIPPED)
        self.message_user(request, f"{count} order(s) marked as shipped.", messages.SUCCESS)

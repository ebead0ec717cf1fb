"""A small shop: customers place orders of products; products belong to categories; tags label both."""

from decimal import Decimal

from django.db import models


class Category(models.Model):
    name = models.CharField(max_length=80, unique=True)
    slug = models.SlugField(max_length=80, unique=True)
    parent = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT, related_name="children")
    description = models.TextField(blank=True)

    class Meta:
        ordering = ["name"]
        verbose_name_plural = "categories"

    def __str__(self) -> str:
        return self.name


class Tag(models.Model):
    name = models.CharField(max_length=40, unique=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Customer(models.Model):
    class Tier(models.TextChoices):
        BRONZE = "bronze", "Bronze"
        SILVER = "silver", "Silver"
        GOLD = "gold", "Gold"

    class Country(models.TextChoices):
        FRANCE = "FR", "France"
        GERMANY = "DE", "Germany"
        ITALY = "IT", "Italy"
        SPAIN = "ES", "Spain"
        UNITED_KINGDOM = "GB", "United Kingdom"

    first_name = models.CharField(max_length=60)
    last_name = models.CharField(max_length=60)
    email = models.EmailField(unique=True)
    phone = models.CharField(max_length=30, blank=True)
    city = models.CharField(max_length=60)
    country = models.CharField(max_length=2, choices=Country.choices)
    tier = models.CharField(max_length=10, choices=Tier.choices, default=Tier.BRONZE)
    joined_on = models.DateField()
    is_active = models.BooleanField(default=True)
    tags = models.ManyToManyField(Tag, blank=True, related_name="customers")
    notes = models.TextField(blank=True)

    class Meta:
        ordering = ["last_name", "first_name"]

    def __str__(self) -> str:
        return f"{self.first_name} {self.last_name}"


class Product(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", "Active"
        DRAFT = "draft", "Draft"
        DISCONTINUED = "discontinued", "Discontinued"

    name = models.CharField(max_length=100)
    sku = models.CharField("SKU", max_length=20, unique=True)
    category = models.ForeignKey(Category, on_delete=models.PROTECT, related_name="products")
    price = models.DecimalField(max_digits=8, decimal_places=2)
    stock = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=15, choices=Status.choices, default=Status.ACTIVE)
    released_on = models.DateField()
    tags = models.ManyToManyField(Tag, blank=True, related_name="products")
    description = models.TextField(blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return f"{self.name} ({self.sku})"


class Order(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        PAID = "paid", "Paid"
        SHIPPED = "shipped", "Shipped"
        DELIVERED = "delivered", "Delivered"
        CANCELLED = "cancelled", "Cancelled"

    class Shipping(models.TextChoices):
        STANDARD = "standard", "Standard"
        EXPRESS = "express", "Express"
        PICKUP = "pickup", "Store pickup"

    number = models.CharField(max_length=12, unique=True)
    customer = models.ForeignKey(Customer, on_delete=models.PROTECT, related_name="orders")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    placed_at = models.DateTimeField()
    ship_by = models.DateField(null=True, blank=True)
    shipping = models.CharField("shipping method", max_length=10, choices=Shipping.choices, default=Shipping.STANDARD)
    tags = models.ManyToManyField(Tag, blank=True, related_name="orders")
    note = models.TextField(blank=True)

    class Meta:
        ordering = ["-placed_at"]

    def __str__(self) -> str:
        return self.number

    def total(self) -> Decimal:
        return sum((line.quantity * line.unit_price for line in self.lines.all()), Decimal("0.00"))


class OrderLine(models.Model):
    order = models.ForeignKey(Order, on_delete=models.CASCADE, related_name="lines")
    product = models.ForeignKey(Product, on_delete=models.PROTECT, related_name="order_lines")
    quantity = models.PositiveIntegerField(default=1)
    unit_price = models.DecimalField(max_digits=8, decimal_places=2)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.quantity} × {self.product.name}"

#include "consumer.cpp"
